"""Per-page control modules (being moved into one folder per page: see ui/skeleton.py)."""
