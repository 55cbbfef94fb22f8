"""The floor section's fresh ext4 (bench/mpiwrite_bench/fresh_ext4.py) made, remade and
removed for real: a loop mount needs root and a loop device, so the test skips without them."""
import os
import shutil
import subprocess

import pytest

from mpiwrite_bench import fresh_ext4
from mpiwrite_bench.fresh_ext4 import FreshExt4, size_for
from mpiwrite_bench.scratch import BenchError, Scratch
from mpiwrite_bench.sections import floor


def mounted(path):
    with open("/proc/self/mounts") as f:
        return any(line.split()[1] == path for line in f)


def can_loop_mount():
    """Root, mkfs.ext4, and a free loop device (`losetup -f` finds one: a container without
    /dev/loop* has none)."""
    if os.geteuid() != 0 or shutil.which("mkfs.ext4") is None or shutil.which("losetup") is None:
        return False
    return subprocess.run(["losetup", "-f"], capture_output=True).returncode == 0


@pytest.mark.skipif(not can_loop_mount(), reason="needs root, mkfs.ext4 and a free loop device")
def test_every_remake_is_an_empty_journalled_ext4_and_close_leaves_nothing(tmp_path):
    scratch = Scratch(str(tmp_path / "local"), "/dev/shm")
    try:
        fresh = scratch.adopt(FreshExt4(scratch.work, 64, 8192))
        root = fresh.remake()
        assert mounted(root)
        assert os.listdir(root) == []  # lost+found removed: a run's directory is all there is
        facts = fresh.facts()
        assert facts["fstype"] == "ext4" and facts["has_journal"] is True
        assert facts["source"].startswith("/dev/loop")
        with open(os.path.join(root, "left-by-run-1"), "w") as f:
            f.write("x")
        statfs_before = os.statvfs(root)
        assert fresh.remake() == root  # the same mount point, a new file system
        assert os.listdir(root) == []
        assert os.statvfs(root).f_ffree >= statfs_before.f_ffree + 1
        assert fresh.made == 2
        loop = facts["source"]
    finally:
        scratch.close()
    assert not mounted(fresh.mount_point)
    assert not os.path.exists(fresh.image) and not os.path.exists(fresh.mount_point)
    assert not os.path.exists(scratch.shm)
    # The loop device was released with the unmount (mount -o loop sets autoclear).
    out = subprocess.run(["losetup", "-j", fresh.image], capture_output=True, text=True).stdout
    assert loop not in out


def force_unmount(path):
    if mounted(path):
        subprocess.run(["umount", "-l", path], check=False)


# The hostile review's cases (session 12). An interrupt between mount(2) and the end of
# remake(): whether it is mounted is asked of the kernel, so close() still unmounts.
@pytest.mark.skipif(not can_loop_mount(), reason="needs root, mkfs.ext4 and a free loop device")
def test_an_interrupt_right_after_the_mount_still_leaves_nothing(tmp_path, monkeypatch):
    real_run = fresh_ext4._run

    def run(cmd, what):
        out = real_run(cmd, what)
        if cmd[0] == "mount":
            raise KeyboardInterrupt
        return out

    monkeypatch.setattr(fresh_ext4, "_run", run)
    scratch = Scratch(str(tmp_path / "local"), "/dev/shm")
    fresh = scratch.adopt(FreshExt4(scratch.work, 64, 8192))
    try:
        with pytest.raises(KeyboardInterrupt):
            fresh.remake()
        scratch.close()
        assert not mounted(fresh.mount_point)
        assert not os.path.exists(scratch.shm)
    finally:
        force_unmount(fresh.mount_point)
        subprocess.run(["rm", "-rf", scratch.shm], check=False)


# A killed run may still be exiting with its directory on the file system ("target is busy"):
# close() waits for it rather than leaving the mount, its loop device and the tmpfs root.
@pytest.mark.skipif(not can_loop_mount(), reason="needs root, mkfs.ext4 and a free loop device")
def test_close_waits_for_a_killed_run_that_is_still_exiting(tmp_path):
    scratch = Scratch(str(tmp_path / "local"), "/dev/shm")
    fresh = scratch.adopt(FreshExt4(scratch.work, 64, 8192))
    root = fresh.remake()
    rank = subprocess.Popen(["sleep", "1"], cwd=root)  # stands for a rank still exiting
    try:
        scratch.close()
        assert rank.poll() is not None  # close() returned after it had gone
        assert not mounted(fresh.mount_point)
        assert not os.path.exists(scratch.shm)
    finally:
        rank.wait()
        force_unmount(fresh.mount_point)
        subprocess.run(["rm", "-rf", scratch.shm], check=False)


# One that never lets go: detached lazily after the patience, nothing mounted left under the
# tmpfs root; the kernel frees the loop device when the last user exits.
@pytest.mark.skipif(not can_loop_mount(), reason="needs root, mkfs.ext4 and a free loop device")
def test_a_file_system_still_busy_after_the_patience_is_detached(tmp_path):
    scratch = Scratch(str(tmp_path / "local"), "/dev/shm")
    fresh = scratch.adopt(FreshExt4(scratch.work, 64, 8192))
    root = fresh.remake()
    holder = subprocess.Popen(["sleep", "30"], cwd=root)
    try:
        fresh.unmount(patience_s=0.3)
        assert not mounted(fresh.mount_point)
        scratch.close()
        assert not os.path.exists(scratch.shm)
    finally:
        holder.kill()
        holder.wait()
        force_unmount(fresh.mount_point)
        subprocess.run(["rm", "-rf", scratch.shm], check=False)


def test_a_non_root_user_is_told_why(monkeypatch, tmp_path):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(BenchError, match="needs root"):
        FreshExt4(str(tmp_path), 64, 8192)


# Told when the parameters are read, before the other file systems' cells run (hours of them
# at the default sizes).
def test_a_non_root_user_is_told_before_any_cell_runs(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(BenchError, match="needs root"):
        floor.Params(fs=["local", "ext4"])
    floor.Params(fs=["local", "shm"])  # the others need nothing of the kind


def test_size_fits_the_largest_run():
    mib, inodes = size_for(100_000, 0)
    assert inodes >= 100_000 * 2 and mib * 1024 * 1024 >= 100_000 * 4096 * 2
    mib, inodes = size_for(10_000, 2 * 111_111)  # a tree run of two ranks outgrows its files
    assert inodes >= 2 * 111_111 and mib * 1024 * 1024 >= 2 * 111_111 * 4096
    assert size_for(1, 0)[0] >= 512  # the journal and the tables fit a small one
