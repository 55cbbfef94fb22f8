"""One module per section, each a parameters dataclass (defaults = the benchmark's defaults,
smoke() = toy sizes) plus plan (what would run: cells, variants, files kept), run (the runs,
raw records) and summarize (the section's JSON figures and Markdown lines)."""
from . import (alloc, auto, dynamic, dynamic_hosts, floor, netfs, overhead, progress, scale,
               startup, uring)

# In the order they run: the three cheap, tmpfs-only ones first, so a broken build or a
# regression shows within a minute.
MODULES = {"overhead": overhead, "startup": startup, "alloc": alloc, "floor": floor,
           "dynamic": dynamic, "dynamic-hosts": dynamic_hosts, "uring": uring, "scale": scale,
           "netfs": netfs, "progress": progress, "auto": auto}
# Only when named: they need root and make emulated hosts (network namespaces; netfs also a
# GlusterFS testbed), so neither the default run, ALL nor bench.smoke includes them.
ROOT_ONLY = {"dynamic-hosts", "netfs"}
DEFAULT = ["overhead", "startup", "alloc", "floor", "dynamic", "uring", "scale", "progress"]
# auto is only when named too, but needs no root: at full size (-np 64, -r 100 against
# -r auto) a round took 7-9 minutes on the 2-core VM, far more than any default section.
# bench.smoke runs it at toy size with the default ones.
SMOKE = DEFAULT + ["auto"]
# Sections that touch the local disk (and so wait out the inode trap first).
LOCAL_DISK = {"floor", "dynamic", "uring", "scale"}
