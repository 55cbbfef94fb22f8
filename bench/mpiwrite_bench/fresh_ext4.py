"""A fresh ext4 file system for every run (the floor section's file system "ext4").

Why. The local disk of the VMs this benchmark runs on is ext4 without a journal, mounted
`discard`. Two things there have nothing to do with either program: without a journal, ext4
will not reuse an inode freed in the last 60 s (300 s while its table block is dirty), so the
creates of a run after a run that removed its files are 5-30x slower (the inode trap, see
scratch.py); and `discard` makes every rmdir a device round trip (1-4 ms). A phases run
removes its files, so on the local disk each run sets the trap for the next and the write
cells measure the trap, not the program.

What. An ext4 image in a sparse file on tmpfs, made by mkfs.ext4 with the defaults (a
journal, data=ordered) and every inode table and the journal written out at mkfs time
(lazy_itable_init=0, lazy_journal_init=0: no ext4lazyinit thread zeroing tables during a
run), mounted through a loop device with the default options. remake() unmounts it, makes it
anew and mounts it again before every run, so each run of either program starts on the same
empty file system: the file system's own code (journal, block and inode allocation,
directory index) with a device that costs nearly nothing. Needs root (mount)."""
import os
import subprocess
import time

from .scratch import BenchError, log


def _run(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise BenchError(f"{what}: {' '.join(cmd)}: {(p.stderr or p.stdout).strip()[:300]}")
    return p.stdout


TOOLS = ("mkfs.ext4", "mount", "umount", "findmnt", "losetup")


def check_can_make():
    """Raises, saying why, unless this process can make and mount a fresh ext4: root, the
    tools, and a free loop device. Called when the parameters are read, before any cell runs."""
    if os.geteuid() != 0:
        raise BenchError("--floor-fs ext4 makes and mounts a file system: it needs root")
    path = os.environ.get("PATH", "").split(":") + ["/sbin", "/usr/sbin"]
    for tool in TOOLS:
        if not any(os.access(os.path.join(d, tool), os.X_OK) for d in path if d):
            raise BenchError(f"--floor-fs ext4 needs {tool} (Debian: e2fsprogs, mount, util-linux)")
    if subprocess.run(["losetup", "-f"], capture_output=True).returncode != 0:
        raise BenchError("--floor-fs ext4 needs a free loop device (losetup -f found none)")


class FreshExt4:
    """An image at `image` (sparse, `size_mib`), mounted at `mount_point` by remake(). Whether
    it is mounted is asked of the kernel (os.path.ismount), never remembered: an interrupt
    between mount(2) and a flag would leave a mount that nothing unmounts."""

    def __init__(self, work_dir, size_mib, inodes):
        check_can_make()
        self.image = os.path.join(work_dir, "fresh-ext4.img")
        self.mount_point = os.path.join(work_dir, "fresh-ext4")
        self.size_mib = size_mib
        self.inodes = inodes
        self.made = 0
        os.mkdir(self.mount_point)
        log(f"ext4: a fresh {size_mib} MiB file system ({inodes} inodes) on a loop device "
            f"backed by {self.image}, made anew before every run")

    @property
    def mounted(self):
        return os.path.ismount(self.mount_point)

    def remake(self):
        """Unmounts the last one, makes a new file system, mounts it; returns its root."""
        self.unmount()
        with open(self.image, "wb") as f:  # a new sparse file: nothing of the last run's blocks
            f.truncate(self.size_mib << 20)
        _run(["mkfs.ext4", "-q", "-F", "-N", str(self.inodes),
              "-E", "lazy_itable_init=0,lazy_journal_init=0", self.image], "mkfs.ext4")
        _run(["mount", "-t", "ext4", "-o", "loop", self.image, self.mount_point], "mount")
        self.made += 1
        os.rmdir(os.path.join(self.mount_point, "lost+found"))
        return self.mount_point

    def unmount(self, patience_s=5.0):
        """Unmounts (which frees the loop device: mount -o loop sets autoclear). A run that was
        killed may still be exiting with its directory or files there ("target is busy"):
        retried for `patience_s`, then detached lazily (umount -l), the kernel finishing the
        unmount and freeing the loop device when the last user has gone."""
        deadline = time.monotonic() + patience_s
        while self.mounted:
            p = subprocess.run(["umount", self.mount_point], capture_output=True, text=True)
            if p.returncode == 0 or not self.mounted:
                return
            if time.monotonic() >= deadline:
                log(f"ext4: {self.mount_point} still busy after {patience_s:.0f} s "
                    f"({p.stderr.strip()[:120]}): detached with umount -l")
                _run(["umount", "-l", self.mount_point], "umount -l")
                return
            time.sleep(0.1)

    def facts(self):
        """What the report says of it: the mount's source, type and options, and its journal."""
        if not self.mounted:
            return {"path": self.mount_point, "fstype": "ext4", "fresh_per_run": True}
        source, fstype, options = (_run(["findmnt", "-f", "-n", "-o", "SOURCE,FSTYPE,OPTIONS",
                                         self.mount_point], "findmnt").split(None, 2) + ["", "", ""])[:3]
        entry = {"path": self.mount_point, "source": source, "fstype": fstype,
                 "mount_options": options.strip(), "fresh_per_run": True,
                 "backing": f"a sparse {self.size_mib} MiB file on tmpfs"}
        try:
            with open(f"/sys/fs/ext4/{os.path.basename(source)}/journal_task") as f:
                entry["has_journal"] = f.read().strip() != "<none>"
        except OSError:
            pass
        return entry

    def close(self):
        try:
            self.unmount()
        finally:
            if not self.mounted:  # else Scratch.close() leaves it, saying so
                for path in (self.image,):
                    try:
                        os.unlink(path)
                    except OSError:
                        pass
                try:
                    os.rmdir(self.mount_point)
                except OSError:
                    pass


def size_for(files, tree_directories):
    """(MiB, inodes) for a run of `files` one-block files or a tree run of `tree_directories`
    directories (one block each), with room to spare: the image is sparse, so only what a run
    writes takes memory."""
    items = max(files, tree_directories)
    inodes = 2 * items + 4096
    mib = max(512, (items * 3 * 4096 >> 20) + 256)
    return mib, inodes
