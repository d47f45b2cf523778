"""Benchmarks (``make bench``): each ``bench/<name>.py`` has ``main()`` that prints figures."""
