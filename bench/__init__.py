"""Benchmarks, load test, soak and scale-out measurement for Cube Theory Lab.

Not part of the test suite. ``python -m bench`` prints the page and kernel table;
``python -m bench --help`` lists the subcommands (``pages``, ``kernels``, ``load``,
``soak``, ``scale``). Every command is bounded in time, stops by itself and
touches only 127.0.0.1.
"""
