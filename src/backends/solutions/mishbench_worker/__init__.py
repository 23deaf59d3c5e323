"""mishbench's Python solution worker (solution_worker.py is its entry point; docs/solutions.md)."""
