"""mpiwrite's benchmark: how close mpiwrite is to the least a program can do, what its own
bookkeeping, start-up, allocations, dynamic partition, io_uring engine and a million files cost.

Run as `python3 -m mpiwrite_bench` with bench/ on sys.path (tools/bench.sh does that).
Layout: harness (the one method every section shares), scratch (where files go, the ext4
inode trap, machine facts), stats (pure figures), report (JSON and Markdown), sections/ (one
module per section: a parameters dataclass plus plan / run / summarize)."""
