"""pytest plugin (entry point ``pytest11``): trace files as conformance test items."""
