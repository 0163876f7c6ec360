"""Everything Qt. Views never touch SQL or files: they ask models, models ask the worker, the worker
asks the core."""
