"""Cached wrappers around cubecore: scalar/tuple arguments, bounded ``max_entries``.

One module per page. Results are plain data (DataFrames, dicts) so that the
figure builders stay pure and the caches pickle cheaply.
"""
