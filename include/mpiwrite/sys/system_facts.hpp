#pragma once
// What a rank learns about where it runs, for the report's context and the time axis: the
// file system under a path, the CPUs it may use, whether the launcher bound it, its peak
// memory, and which kernel's clock it reads. Read outside every timed phase.

#include <string>

namespace mpiwrite {

// The file-system type of `path` ("ext4", "tmpfs", "lustre", ... or "0x<magic>").
std::string filesystem_type(const std::string& path);
std::string filesystem_name(unsigned long magic);  // pure mapping, unit-tested

// The number of CPUs the calling thread may run on (its affinity mask); 0 if unknown.
int usable_cpus();

// Whether the launcher bound this process to CPUs, from what Open MPI's mpirun (4 or 5)
// exports to its ranks: core/launcher_binding.hpp over this process's environment.
// 1 bound, 0 not bound (--bind-to none), -1 unknown (another launcher, or no mpirun).
int launcher_binding();

// How many file descriptors the process may have open (RLIMIT_NOFILE's soft limit; 1024 when
// it cannot be read, 2^20 when unlimited).
std::size_t descriptor_limit();

// The process's peak resident set size in KiB (getrusage ru_maxrss).
long peak_rss_kib();

// What names this kernel's boot (/proc/sys/kernel/random/boot_id): processes with the same id
// share CLOCK_MONOTONIC, whatever their host names (containers, network namespaces). When it
// cannot be read, or MPIWRITE_CLOCK_BY_HOST=1 is set (a test aid), "host:" + the host name.
std::string kernel_boot_id();

}  // namespace mpiwrite
