"""Where the benchmark's files go, and the facts about the machine it ran on.

The inode trap. On ext4 without a journal, for 60 s after files are deleted (360 s while the
inode table block is still dirty), every new create in that area is 5-30x slower: the kernel
will not reuse a recently freed inode. So nothing is ever deleted on the local disk while the
benchmark runs: its files stay until the very end (checked up front: space and inodes). The
final cleanup syncs and leaves a timestamp (the settle marker), and a later invocation waits
until SETTLE seconds have passed since then before it starts. Do not delete many files on
that file system yourself just before a run."""
import os
import sys
import platform
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass


def log(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)


class BenchError(Exception):
    """A failed run, a wrong file, a full disk: the benchmark stops with this message."""


def run_text(cmd):
    """The command's standard output, stripped; None if it cannot run or fails."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def fs_type(path):
    return (run_text(["findmnt", "-f", "-n", "-o", "FSTYPE", "-T", path])
            or run_text(["stat", "-f", "-c", "%T", path]) or "?")


def free_space(path):
    """(available KiB, available inodes) as df --output=avail,iavail reports them; inodes 0
    on file systems without an inode count (btrfs)."""
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize // 1024, st.f_favail


def mem_available_kib():
    try:
        with open("/proc/meminfo") as f:
            return int(next(l.split()[1] for l in f if l.startswith("MemAvailable:")))
    except (OSError, StopIteration, ValueError):
        return None


@dataclass
class SpaceNeed:
    """What the chosen sections keep at once: local_files and local_runs (directories) stay on
    the local disk until the end; shm_cell_files is the most a tmpfs cell holds at a time."""
    local_files: int = 0
    local_runs: int = 0
    shm_cell_files: int = 1

    def add(self, other):
        self.local_files += other.local_files
        self.local_runs += other.local_runs
        self.shm_cell_files = max(self.shm_cell_files, other.shm_cell_files)


def blocks_per_file(file_size):
    return max(1, (file_size + 4095) // 4096)


def data_kib(files, file_size):
    """Disk space for that many files, 10 % and 1 MiB of slack."""
    return files * blocks_per_file(file_size) * 4 * 11 // 10 + 1024


class Scratch:
    """The two scratch roots (local disk and tmpfs) of one invocation. Only what this
    invocation made is ever removed; close() removes it also on failure or Ctrl-C."""

    def __init__(self, tmp_root, shm_root):
        self.made_tmp_root = None
        if not os.path.isdir(tmp_root):  # the topmost directory makedirs is about to create
            top = tmp_root
            while not os.path.isdir(os.path.dirname(top)):
                top = os.path.dirname(top)
            os.makedirs(tmp_root)
            self.made_tmp_root = os.path.realpath(top)
        self.tmp_root = os.path.realpath(tmp_root)
        self.shm_root = os.path.realpath(shm_root)
        self.local = tempfile.mkdtemp(prefix="bench.", dir=self.tmp_root)
        self.shm = tempfile.mkdtemp(prefix="mpiwrite-bench.", dir=self.shm_root)
        self.work = os.path.join(self.shm, "work")  # our bookkeeping: never on the disk under test
        os.mkdir(self.work)
        self.local_fs = fs_type(self.local)
        self.shm_fs = fs_type(self.shm)
        self.local_has_files = False
        self.adopted = []  # what a section mounted or made beside the roots: closed first
        tmpdir = os.environ.get("TMPDIR", "/tmp")
        self.settle_marker = os.path.join(
            tmpdir, f"mpiwrite-bench.cleanup.{os.stat(self.tmp_root).st_dev}")
        if self.shm_fs != "tmpfs":
            log(f"warning: {shm_root} is {self.shm_fs}, not tmpfs")
        if self.local_fs == "tmpfs":
            log(f"warning: {tmp_root} is tmpfs, not a local disk")

    def base(self, fs):
        """(directory, file-system type) of 'local' or 'shm'."""
        return (self.local, self.local_fs) if fs == "local" else (self.shm, self.shm_fs)

    def touched(self, fs):
        """A run is about to put files on fs: the local disk's stay until close()."""
        if fs == "local":
            self.local_has_files = True

    def check(self, need, file_size):
        """Stops before any run if the files that stay, or a tmpfs cell, do not fit."""
        need_inodes = need.local_files + need.local_runs
        need_kib = data_kib(need.local_files, file_size)
        avail_kib, avail_inodes = free_space(self.local)
        if 0 < avail_inodes < need_inodes:
            raise BenchError(f"{self.tmp_root}: {avail_inodes} inodes free, the local-disk cells "
                             f"keep {need_inodes} until the end")
        if avail_kib < need_kib:
            raise BenchError(f"{self.tmp_root}: {avail_kib // 1024} MiB free, the local-disk "
                             f"cells need ~{need_kib // 1024} MiB")
        if need.shm_cell_files <= 1:  # overhead, startup, scale only: no tmpfs cell
            return need_kib, need_inodes
        shm_need = data_kib(need.shm_cell_files, file_size)
        shm_kib, shm_inodes = free_space(self.shm)
        if shm_kib < shm_need:
            raise BenchError(f"{self.shm_root}: {shm_kib // 1024} MiB free, a cell needs "
                             f"~{shm_need // 1024} MiB")
        if 0 < shm_inodes < need.shm_cell_files + 1000:
            raise BenchError(f"{self.shm_root}: {shm_inodes} inodes free, a cell needs "
                             f"{need.shm_cell_files}")
        # tmpfs lives in RAM: a page per file and ~1 KiB of inode and dentry.
        mem = mem_available_kib()
        if mem is not None and mem < shm_need + need.shm_cell_files + 1048576:
            raise BenchError(f"only {mem // 1024} MiB of memory available, a tmpfs cell of "
                             f"{need.shm_cell_files} files needs "
                             f"~{(shm_need + need.shm_cell_files) // 1024 + 1024} MiB")
        return need_kib, need_inodes

    def place_large(self, files, file_size, local_kib, local_inodes):
        """'shm' if that many files fit in tmpfs and memory, else 'local' if they fit on the
        disk beside what stays there; raises if neither (the scale section)."""
        dk = data_kib(files, file_size)
        shm_kib = dk + files  # + ~1 KiB of inode and dentry per file
        mem = mem_available_kib() or 0
        s_kib, s_inodes = free_space(self.shm)
        if s_kib >= shm_kib and mem >= shm_kib + 1048576 and (s_inodes == 0 or s_inodes > files + 100):
            return "shm"
        a_kib, a_inodes = free_space(self.local)
        if a_kib >= dk + local_kib and (a_inodes == 0 or a_inodes > files + local_inodes + 100):
            log(f"scale: {files} files do not fit in {self.shm_root} (or in memory): they go to "
                f"the local disk {self.tmp_root}")
            return "local"
        raise BenchError(f"scale: {files} files need ~{dk // 1024} MiB and {files} inodes: "
                         f"neither {self.shm_root} nor {self.tmp_root} has them")

    def settle(self, seconds):
        """Waits out the inode trap of an earlier invocation's cleanup (see the module doc)."""
        try:
            with open(self.settle_marker) as f:
                last = int(f.read().strip())
        except (OSError, ValueError):
            return
        wait_s = last + seconds - int(time.time())
        if wait_s > 0:
            log(f"an earlier benchmark deleted its files on this file system "
                f"{seconds - wait_s} s ago;")
            log(f"waiting {wait_s} s for the ext4 inode trap to pass (--settle {seconds})")
            time.sleep(wait_s)

    def adopt(self, thing):
        """Something with close() (a mounted file system of a section) that close() ends before
        it removes the roots: a mount under the tmpfs root must be unmounted before rmtree."""
        self.adopted.append(thing)
        return thing

    def close(self):
        for thing in reversed(self.adopted):
            try:
                thing.close()
            except Exception as e:  # the rest is still removed; the mount stays, said once
                log(f"warning: {e}")
        self.adopted = []
        still = mounts_under(self.shm)
        if still:  # never remove through a mount: what is in it is not this tree's to delete
            log(f"warning: left {self.shm}: {still[0]} is still mounted there")
        else:
            shutil.rmtree(self.shm, ignore_errors=True)
        if os.path.isdir(self.local):
            if self.local_has_files:
                log("removing the local-disk files (untimed)...")
            shutil.rmtree(self.local, ignore_errors=True)
            if self.local_has_files:
                os.sync()  # a clean inode table: the inode trap lasts 60 s from now, not 360 s
                try:
                    with open(self.settle_marker, "w") as f:
                        f.write(f"{int(time.time())}\n")
                except OSError:
                    pass
        if self.made_tmp_root:  # the directories makedirs made, if empty
            d = self.tmp_root
            while True:
                try:
                    os.rmdir(d)
                except OSError:
                    break
                if d == self.made_tmp_root:
                    break
                d = os.path.dirname(d)


def mounts_under(path):
    """The mount points at or below `path` (from /proc/self/mounts)."""
    top = os.path.realpath(path)
    found = []
    try:
        with open("/proc/self/mounts") as f:
            for line in f:
                fields = line.split()
                if len(fields) > 1:
                    point = fields[1].replace("\\040", " ")
                    if point == top or point.startswith(top + "/"):
                        found.append(point)
    except OSError:
        pass
    return found


def _first_line(path, prefix, split=None):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(prefix):
                    return line.split(split, 1)[1].strip() if split else line.split()[1]
    except OSError:
        pass
    return None


def machine(dirs):
    """CPU, memory, kernel, OS, clock source and the scratch file systems (with, for ext*,
    whether it has a journal: the inode trap is worst without one)."""
    info = {"hostname": platform.node(), "nproc": len(os.sched_getaffinity(0)),
            "cpus_online": os.cpu_count(), "kernel": platform.release(),
            "arch": platform.machine()}
    cpu = _first_line("/proc/cpuinfo", "model name", ":")
    if cpu:
        info["cpu"] = cpu
    mem = _first_line("/proc/meminfo", "MemTotal")
    if mem:
        info["mem_total_kib"] = int(mem)
    os_name = _first_line("/etc/os-release", "PRETTY_NAME=", "=")
    if os_name:
        info["os"] = os_name.strip('"')
    try:
        with open("/sys/devices/system/clocksource/clocksource0/current_clocksource") as f:
            info["clocksource"] = f.read().strip()
    except OSError:
        pass
    info["filesystems"] = {}
    for role, path in dirs.items():
        fs = run_text(["findmnt", "-f", "-n", "-o", "SOURCE,FSTYPE,OPTIONS", "-T", path])
        entry = {"path": path}
        if fs:
            source, fstype, options = (fs.split(None, 2) + ["", "", ""])[:3]
            entry.update(source=source, fstype=fstype, mount_options=options)
            if fstype.startswith("ext"):
                try:  # the journal thread's pid, or "<none>" without a journal
                    with open(f"/sys/fs/ext4/{os.path.basename(source)}/journal_task") as f:
                        entry["has_journal"] = f.read().strip() != "<none>"
                except OSError:
                    pass
        info["filesystems"][role] = entry
    return info


def software(repo, build_dir, mpirun):
    """mpirun's version, the compiler of the build, the git commit and whether the tree had
    uncommitted changes."""
    compiler = ""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            compiler = next((l.split("=", 1)[1].strip() for l in f
                             if l.startswith("CMAKE_CXX_COMPILER:")), "")
    except OSError:
        pass
    version = (run_text([compiler or "c++", "--version"]) or "").split("\n")[0]
    mpi = (run_text([mpirun, "--version"]) or "").split("\n")[0]
    commit = run_text(["git", "-C", repo, "rev-parse", "--short=12", "HEAD"])
    dirty = bool(run_text(["git", "--no-optional-locks", "-C", repo, "status", "--porcelain",
                           "--untracked-files=no"]))
    return {"mpi": mpi, "compiler": f"{compiler} {version}", "build_dir": build_dir,
            "build_type": "Release", "git_commit": commit or None,
            "git_dirty": dirty if commit else False}
