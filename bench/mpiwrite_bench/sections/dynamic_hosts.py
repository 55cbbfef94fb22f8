"""Section "dynamic-hosts" (only when named; root): the dynamic section across the two
emulated hosts of tests/testbed/netns-up.sh (network namespaces; TCP between them), 2 ranks
--map-by node (rank 0 on mpihostA, rank 1 on mpihostB), 1 thread each, tmpfs, the dynamic
mode: block against dynamic with each chunk (8 64), and the first chunk again with the
writers' prefetch off (dynamic-cK-nopf: MPIWRITE_NO_PREFETCH=1), once without and once with
rank 1 slowed by the dynamic section's delay: ratios of medians dynamic / block (and the
speedup block / dynamic with the slow rank). Across nodes every hand-out is a message to
rank 0 and back. Each run's tmpfs files go right after it; the hosts are removed at the end.
plan() and launch() are pure, so the section is testable without namespaces."""
import os
import sys
import subprocess
from dataclasses import dataclass, field

from . import dynamic
from ..scratch import BenchError, SpaceNeed, log

NAME = "dynamic-hosts"
NET = "10.77.0.0/24"


@dataclass
class Params:
    chunks: list = field(default_factory=lambda: [8, 64])
    dyn: dynamic.Params = field(default_factory=dynamic.Params)  # files, runs, mode, delay

    def __post_init__(self):
        if not self.chunks or len(set(self.chunks)) != len(self.chunks):
            raise BenchError("--dh-chunks: not empty, and no chunk twice")

    @classmethod
    def smoke(cls):
        return cls(chunks=[8], dyn=dynamic.Params.smoke())

    @property
    def variants(self):
        return (["block"] + [f"dynamic-c{c}" for c in self.chunks]
                + [f"dynamic-c{self.chunks[0]}-nopf"])


def launch(repo, mpirun, hostfile):
    """(mpirun flags, environment) that start the ranks on mpihostA and mpihostB."""
    flags = ["mpihostA", mpirun, "--hostfile", hostfile, "--map-by", "node", "--bind-to", "none"]
    env = {"OMPI_MCA_plm_rsh_agent": os.path.join(repo, "tests/testbed/netns-rsh"),
           "OMPI_MCA_oob_tcp_if_include": NET, "OMPI_MCA_btl_tcp_if_include": NET,
           "OMPI_MCA_btl": "vader,self,tcp"}
    return flags, env


def plan(p, h):
    vs = p.variants
    return {"cells": [{"part": "overhead", "fs": "shm", "layout": "2x1", "slow": False,
                       "variants": vs},
                      {"part": "slow", "fs": "shm", "layout": "2x1", "slow": True,
                       "variants": vs}],
            "needs_root": True, "need": SpaceNeed(shm_cell_files=p.dyn.files)}


def parameters(p, h):
    d = p.dyn
    return {"files": d.files, "runs": d.runs, "overhead_variants": p.variants,
            "overhead_layouts": ["2x1"], "mode": d.mode, "overhead_filesystems": ["shm"],
            "slow_variants": p.variants, "slow_layouts": ["2x1"], "slow_filesystems": ["shm"],
            "slow_ranks": [dynamic.SLOW_RANK], "slow_delay_us": d.slow_delay_us,
            "hosts": "tests/testbed/netns-up.sh: mpihostA (rank 0) and mpihostB (rank 1), TCP "
                     "between them",
            "variant_names": "block: --partition block; dynamic-cK: --partition dynamic --chunk K; "
                             "dynamic-cK-nopf: the same with MPIWRITE_NO_PREFETCH=1",
            "order": "per cell, runs interleaved; the first variant rotates every run and every cell",
            "files_removed": "after each run (tmpfs)", "goal_ratio": 1.03}


def meta_extra():
    return {"title": "--partition dynamic vs. block across two hosts",
            "counter": "rank 0 by messages (rank 0's main thread answers; each writer prefetches "
                       "its next chunk unless -nopf)"}


def run(p, h, repo):
    if os.geteuid() != 0:
        raise BenchError("dynamic-hosts: the emulated hosts (network namespaces) need root")
    d = p.dyn
    h.note(f"Section dynamic-hosts: mpirun runs on mpihostA as `tests/testbed/netns-exec "
           f"mpihostA {h.mpirun} --hostfile H -np 2 --map-by node --bind-to none mpiwrite -t 1 "
           f"--write-mode {d.mode} --partition block|dynamic --chunk K [--slow-rank "
           f"{dynamic.SLOW_RANK} --slow-delay-us {d.slow_delay_us}] -r 1 --format json` (btl "
           f"vader,self,tcp; TCP between the hosts); files on tmpfs, shared by both hosts.")
    hostfile = os.path.join(h.scratch.work, "hostfile")
    with open(hostfile, "w") as f:
        f.write("mpihostA slots=2\nmpihostB slots=2\n")
    flags, env = launch(repo, h.mpirun, hostfile)
    up = subprocess.run([os.path.join(repo, "tests/testbed/netns-up.sh")], stdout=sys.stderr)
    try:
        if up.returncode != 0:
            raise BenchError("netns-up.sh could not make the hosts")
        saved = h.mpirun
        h.mpirun = os.path.join(repo, "tests/testbed/netns-exec")
        try:
            r = dynamic.Runner(d, h, launch_flags=flags, remove_runs=True, env=env)
            r.cells_total = 2
            log(f"dynamic-hosts: 2 cells x {d.runs} runs, variants {' '.join(p.variants)}, "
                f"{d.files} files each, tmpfs: {h.scratch.shm}")
            h.between_series()
            if h.warmup:
                r.warm("shm", p.variants, "2x1")
            r.cell("overhead", "shm", "2x1", False, p.variants)
            r.cell("slow", "shm", "2x1", True, p.variants)
        finally:
            h.mpirun = saved
    finally:
        down = subprocess.run([os.path.join(repo, "tests/testbed/netns-down.sh")],
                              stdout=sys.stderr)
    if down.returncode != 0:
        raise BenchError("netns-down.sh left something behind")
    return r.records


def summarize(meta, sec, records):
    return dynamic.summarize(meta, sec, records)


figures = dynamic.figures
