#include "mpiwrite/mpi/comm.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <thread>

#include "mpiwrite/mpi/config_serialization.hpp"
#include "mpiwrite/mpi/host_doorbell.hpp"

namespace mpiwrite {

// Non-intrusive Boost.Serialization, kept here so the core library needs no Boost (RunConfig's
// is in config_serialization.hpp, from the one list of its fields).

template <class Archive>
void serialize(Archive& ar, RankFigures& f, unsigned /*version*/) {
  ar& f.rank& f.elapsed_s& f.files& f.bytes& f.start_s;
}

namespace comm {

constexpr int kRoot = 0;

namespace {

constexpr int kBoundaryTag = 7201;  // the boundaries' messages (kTag 7101: the clock exchange)
constexpr int kSamplesTag = 7202;   // gather_clock_samples

WaitObserver& wait_observer() {
  static WaitObserver observer;
  return observer;
}

// `ranks` of `comm` as world ranks.
std::vector<int> to_world(MPI_Comm comm, const std::vector<int>& ranks) {
  std::vector<int> world(ranks.size());
  if (ranks.empty()) return world;
  MPI_Group group, world_group;
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_translate_ranks(group, static_cast<int>(ranks.size()), ranks.data(), world_group,
                            world.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world_group);
  return world;
}

// Tells the observer whom this rank waits for now: `ranks` of `comm`, as world ranks; not
// `exact`: one of them, which cannot be told (a blocking collective).
void observe(MPI_Comm comm, const std::vector<int>& ranks, bool exact = true) {
  if (!wait_observer()) return;
  wait_observer()(to_world(comm, ranks), exact);
}

// Sleeps between tests of a wait (comm.hpp's Pace). Prompt: 50 µs while the wait is short (a
// boundary's ranks are released within microseconds of each other), then longer, up to 500 µs,
// so that a rank waiting seconds for another wakes 2000 times a second, not 20000. Patient:
// 500 µs, doubling up to 2 ms, for waits through other ranks' timed work.
class Backoff {
 public:
  explicit Backoff(Pace pace)
      : pace_(pace), pause_(pace == Pace::patient ? kPatientFirst : kPromptFirst) {}
  void sleep() {
    std::this_thread::sleep_for(pause_);
    waited_ += pause_;
    if (pace_ == Pace::patient) {
      pause_ = std::min(2 * pause_, kPatientLongest);
    } else if (waited_ > std::chrono::milliseconds(10)) {
      pause_ = std::min(2 * pause_, kPromptLongest);
    }
  }

 private:
  static constexpr std::chrono::microseconds kPromptFirst{50}, kPromptLongest{500};
  static constexpr std::chrono::microseconds kPatientFirst{500}, kPatientLongest{2000};
  Pace pace_;
  std::chrono::microseconds pause_;
  std::chrono::microseconds waited_{0};
};

// Completes `request`, sleeping between tests rather than spinning.
void wait_quietly(MPI_Request& request, Pace pace = Pace::prompt) {
  int done = 0;
  Backoff backoff(pace);
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  while (!done) {
    backoff.sleep();
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

// The doorbell a patient wait for `comm`'s root sleeps on (host_doorbell.hpp): the process's,
// if there is one and the root shares this host; else null (the wait sleeps between tests).
// Prompt waits test: their boundary's ranks arrive within microseconds of each other.
HostDoorbell* doorbell_for(MPI_Comm comm, Pace pace) {
  HostDoorbell* doorbell = HostDoorbell::current();
  if (pace != Pace::patient || doorbell == nullptr || !doorbell->enabled()) return nullptr;
  return doorbell->on_this_host(to_world(comm, {kRoot})[0]) ? doorbell : nullptr;
}

// Root: after its result's sends have completed, releases the ranks of `comm` that sleep on
// the doorbell (one futex wake each, only for those asleep).
void ring_doorbell(MPI_Comm comm, int size) {
  HostDoorbell* doorbell = HostDoorbell::current();
  if (doorbell == nullptr || !doorbell->enabled()) return;
  std::vector<int> others(static_cast<std::size_t>(size - 1));
  std::iota(others.begin(), others.end(), 1);
  doorbell->ring(to_world(comm, others));
}

// Rank 0: `count` values of `type` from every other rank r of `comm` into in[(r - 1) * count],
// testing with sleeps and telling the observer which ranks have not sent yet.
template <typename T>
void receive_from_every_rank(MPI_Comm comm, int size, T* in, int count, MPI_Datatype type,
                             int tag, Pace pace = Pace::prompt) {
  const auto others = static_cast<std::size_t>(size - 1);
  std::vector<MPI_Request> requests(others);
  for (std::size_t i = 0; i < others; ++i) {
    MPI_Irecv(in + i * static_cast<std::size_t>(count), count, type, static_cast<int>(i + 1), tag,
              comm, &requests[i]);
  }
  std::vector<int> missing(others), arrived(others);
  for (std::size_t i = 0; i < others; ++i) missing[i] = static_cast<int>(i + 1);
  observe(comm, missing);
  Backoff backoff(pace);
  for (std::size_t left = others; left > 0;) {
    int done = 0;
    MPI_Testsome(static_cast<int>(others), requests.data(), &done, arrived.data(),
                 MPI_STATUSES_IGNORE);
    if (done == MPI_UNDEFINED) break;
    if (done == 0) {
      backoff.sleep();
      continue;
    }
    left -= static_cast<std::size_t>(done);
    missing.clear();
    for (std::size_t i = 0; i < others; ++i) {
      if (requests[i] != MPI_REQUEST_NULL) missing.push_back(static_cast<int>(i + 1));
    }
    observe(comm, missing);
  }
  observe(comm, {});
}

// The observable boundary (comm.hpp): every rank's `value` combined on rank 0, the result on
// every rank.
template <typename T, typename Combine>
T boundary_allreduce(const mpi::communicator& communicator, T value, MPI_Datatype type,
                     Combine combine, Pace pace = Pace::prompt) {
  const MPI_Comm comm = MPI_Comm(communicator);
  const int size = communicator.size();
  if (size == 1) return value;
  if (communicator.rank() != kRoot) {
    T result{};
    MPI_Request requests[2];
    MPI_Irecv(&result, 1, type, kRoot, kBoundaryTag, comm, &requests[0]);
    MPI_Isend(&value, 1, type, kRoot, kBoundaryTag, comm, &requests[1]);
    observe(comm, {kRoot});
    if (HostDoorbell* doorbell = doorbell_for(comm, pace)) {
      doorbell->wait(requests[0]);
    } else {
      wait_quietly(requests[0], pace);
    }
    wait_quietly(requests[1]);
    observe(comm, {});
    return result;
  }
  std::vector<T> in(static_cast<std::size_t>(size - 1));
  receive_from_every_rank(comm, size, in.data(), 1, type, kBoundaryTag, pace);
  for (const T& v : in) value = combine(value, v);
  const auto others = static_cast<std::size_t>(size - 1);
  std::vector<MPI_Request> sends(others);
  for (std::size_t i = 0; i < others; ++i) {
    MPI_Isend(&value, 1, type, static_cast<int>(i + 1), kBoundaryTag, comm, &sends[i]);
  }
  for (MPI_Request& send : sends) wait_quietly(send);
  // Every result is sent (an eager message: in the receiver's shared-memory queue, on this
  // host): the ranks asleep on the doorbell can find it now.
  ring_doorbell(comm, size);
  return value;
}

}  // namespace

void observe_waits(WaitObserver observer) { wait_observer() = std::move(observer); }

CollectiveWait::CollectiveWait(MPI_Comm comm, bool from_root) : comm_(comm) {
  if (!wait_observer()) return;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (from_root && rank != kRoot) {
    observe(comm_, {kRoot});
    return;
  }
  std::vector<int> others;
  for (int r = 0; r < size; ++r) {
    if (r != rank) others.push_back(r);
  }
  observe(comm_, others, false);
}

CollectiveWait::~CollectiveWait() { observe(comm_, {}); }

void quiet_barrier(const mpi::communicator& comm, Pace pace) {
  boundary_allreduce(comm, 0, MPI_INT, [](int a, int) { return a; }, pace);
}

void barrier(const mpi::communicator& comm) {
  const CollectiveWait waiting{MPI_Comm(comm)};
  comm.barrier();
}

void settle_outside_ranks(const mpi::communicator& phase_comm, std::chrono::milliseconds limit) {
  HostDoorbell* doorbell = HostDoorbell::current();
  if (doorbell == nullptr || !doorbell->enabled() || !doorbell->on_this_host(kRoot)) return;
  std::vector<int> mine(static_cast<std::size_t>(phase_comm.size()));
  std::iota(mine.begin(), mine.end(), 0);
  const int outside =
      doorbell->host_size() - doorbell->on_this_host_among(to_world(MPI_Comm(phase_comm), mine));
  if (outside <= 0) return;
  const auto until = std::chrono::steady_clock::now() + limit;
  while (doorbell->asleep() < outside && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

int broadcast_int(const mpi::communicator& world, int value) {
  const CollectiveWait waiting{MPI_Comm(world), true};
  mpi::broadcast(world, value, kRoot);
  return value;
}

std::uint64_t broadcast_u64(const mpi::communicator& world, std::uint64_t value) {
  const CollectiveWait waiting{MPI_Comm(world), true};
  mpi::broadcast(world, value, kRoot);
  return value;
}

void broadcast_config(const mpi::communicator& world, RunConfig& config) {
  const CollectiveWait waiting{MPI_Comm(world), true};
  mpi::broadcast(world, config, kRoot);
}

void broadcast_string(const mpi::communicator& world, std::string& value) {
  const CollectiveWait waiting{MPI_Comm(world), true};
  mpi::broadcast(world, value, kRoot);
}

Agreement agree(const mpi::communicator& world, const std::string& local_failure,
                int local_signal, Pace pace) {
  Agreement result;
  // {ok, signal} as MPI_2INT (two ints, contiguous): one boundary for both.
  using Verdict = std::array<int, 2>;
  const Verdict mine{local_failure.empty() ? 1 : 0, local_signal};
  const Verdict all = boundary_allreduce(
      world, mine, MPI_2INT,
      [](Verdict a, Verdict b) { return Verdict{a[0] & b[0], std::max(a[1], b[1])}; }, pace);
  result.all_ok = all[0] != 0;
  result.signal = all[1];
  if (result.all_ok) return result;
  // Only on failure: gather the messages (a rare, slow path).
  std::vector<std::string> messages;
  const CollectiveWait waiting{MPI_Comm(world)};
  mpi::gather(world, local_failure, messages, kRoot);
  for (std::size_t rank = 0; rank < messages.size(); ++rank) {
    if (!messages[rank].empty()) {
      result.failures.push_back("rank " + std::to_string(rank) + ": " + messages[rank]);
    }
  }
  return result;
}

int max_int(const mpi::communicator& world, int value) {
  return boundary_allreduce(world, value, MPI_INT, [](int a, int b) { return std::max(a, b); });
}

std::uint64_t max_u64(const mpi::communicator& comm, std::uint64_t value) {
  return boundary_allreduce(comm, value, MPI_UINT64_T,
                            [](std::uint64_t a, std::uint64_t b) { return std::max(a, b); });
}

namespace {

// CreatedFiles as one array: the number of progressions, each as (first, count, stride), then
// the indices not created.
std::vector<std::uint64_t> flatten(const CreatedFiles& files) {
  std::vector<std::uint64_t> flat;
  flat.reserve(1 + 3 * files.taken.size() + files.not_created.size());
  flat.push_back(files.taken.size());
  for (const Progression& p : files.taken) flat.insert(flat.end(), {p.first, p.count, p.stride});
  flat.insert(flat.end(), files.not_created.begin(), files.not_created.end());
  return flat;
}

CreatedFiles unflatten(const std::vector<std::uint64_t>& flat) {
  CreatedFiles files;
  const std::size_t taken = flat.empty() ? 0 : static_cast<std::size_t>(flat[0]);
  for (std::size_t i = 0; i < taken; ++i) {
    files.taken.push_back({flat[1 + 3 * i], flat[2 + 3 * i], flat[3 + 3 * i]});
  }
  files.not_created.assign(flat.begin() + static_cast<std::ptrdiff_t>(1 + 3 * taken), flat.end());
  return files;
}

// Sends `out` to rank `to` and receives from rank `from` into `in`, waiting quietly.
void exchange(const mpi::communicator& comm, int to, int from, const void* out, int out_count,
              void* in, int in_count) {
  MPI_Request requests[2];
  MPI_Irecv(in, in_count, MPI_UINT64_T, from, 0, MPI_Comm(comm), &requests[0]);
  MPI_Isend(out, out_count, MPI_UINT64_T, to, 0, MPI_Comm(comm), &requests[1]);
  observe(MPI_Comm(comm), {from});
  wait_quietly(requests[0]);
  observe(MPI_Comm(comm), {to});
  wait_quietly(requests[1]);
  observe(MPI_Comm(comm), {});
}

}  // namespace

CreatedFiles created_of_rank_after(const mpi::communicator& comm, const CreatedFiles& mine,
                                   unsigned shift) {
  const int by = static_cast<int>(shift % static_cast<unsigned>(comm.size()));
  if (by == 0) return mine;
  const int next = (comm.rank() + by) % comm.size();
  const int previous = (comm.rank() + comm.size() - by) % comm.size();
  const std::vector<std::uint64_t> out = flatten(mine);
  // The sizes first (the previous rank reads mine; I read the next rank's), then the records.
  std::uint64_t out_size = out.size(), in_size = 0;
  exchange(comm, previous, next, &out_size, 1, &in_size, 1);
  std::vector<std::uint64_t> in(static_cast<std::size_t>(in_size));
  exchange(comm, previous, next, out.data(), static_cast<int>(out.size()), in.data(),
           static_cast<int>(in.size()));
  return unflatten(in);
}

std::vector<RankFigures> gather_figures(const mpi::communicator& world, const RankFigures& mine) {
  const CollectiveWait waiting{MPI_Comm(world)};
  std::vector<RankFigures> all;
  mpi::gather(world, mine, all, kRoot);
  return all;
}

// Point to point, observed as the boundaries are: it comes right after the barrier that ends
// a phase, where a rank frozen while it waited for the barrier's release is found missing.
std::vector<RankClockSample> gather_clock_samples(const mpi::communicator& comm,
                                                  const RankClockSample& mine) {
  constexpr int kFields = 5;
  auto flat = [](const RankClockSample& s) {
    return std::array<std::int64_t, kFields>{s.rank, s.start_ns, s.end_ns,
                                             static_cast<std::int64_t>(s.files),
                                             static_cast<std::int64_t>(s.bytes)};
  };
  const std::array<std::int64_t, kFields> out = flat(mine);
  const MPI_Comm c = MPI_Comm(comm);
  if (comm.rank() != kRoot) {
    MPI_Request request;
    MPI_Isend(out.data(), kFields, MPI_INT64_T, kRoot, kSamplesTag, c, &request);
    observe(c, {kRoot});
    wait_quietly(request);
    observe(c, {});
    return {};
  }
  std::vector<std::int64_t> in(static_cast<std::size_t>(kFields * (comm.size() - 1)));
  if (comm.size() > 1)
    receive_from_every_rank(c, comm.size(), in.data(), kFields, MPI_INT64_T, kSamplesTag);
  std::vector<RankClockSample> all{mine};
  for (std::size_t at = 0; at < in.size(); at += kFields) {
    all.push_back({static_cast<int>(in[at]), in[at + 1], in[at + 2],
                   static_cast<std::uint64_t>(in[at + 3]), static_cast<std::uint64_t>(in[at + 4])});
  }
  return all;
}

std::vector<int> broadcast_ints(const mpi::communicator& world, std::vector<int> values) {
  const CollectiveWait waiting{MPI_Comm(world), true};
  mpi::broadcast(world, values, kRoot);
  return values;
}

ClockOffsets measure_clock_offsets(const mpi::communicator& world, const std::vector<int>& domain,
                                   const std::function<std::int64_t()>& now_ns) {
  constexpr int kExchanges = 16;  // the best of 16 round trips: queueing rarely hits them all
  constexpr int kTag = 7101;
  ClockOffsets result;
  const int me = world.rank();
  if (me == kRoot) {
    result.offset_ns.assign(domain.size(), 0);
    std::vector<std::int64_t> of_leader(domain.size(), 0);
    for (std::size_t leader = 1; leader < domain.size(); ++leader) {
      if (domain[leader] != static_cast<int>(leader) || domain[leader] == domain[kRoot]) continue;
      std::vector<ClockExchange> exchanges(kExchanges);
      for (ClockExchange& e : exchanges) {
        e.sent_ns = now_ns();
        world.send(static_cast<int>(leader), kTag, e.sent_ns);
        world.recv(static_cast<int>(leader), kTag, e.remote_ns);
        e.received_ns = now_ns();
      }
      const ClockOffset offset = estimate_offset(exchanges);
      of_leader[leader] = offset.offset_ns;
      result.error_ns = std::max(result.error_ns, offset.error_ns);
      result.largest_ns = std::max(result.largest_ns, std::abs(offset.offset_ns));
    }
    for (std::size_t r = 0; r < domain.size(); ++r) {
      result.offset_ns[r] = of_leader[static_cast<std::size_t>(domain[r])];
    }
  } else if (domain[static_cast<std::size_t>(me)] == me && domain[kRoot] != me) {
    for (int i = 0; i < kExchanges; ++i) {
      std::int64_t ping = 0;
      world.recv(kRoot, kTag, ping);
      world.send(kRoot, kTag, now_ns());
    }
  }
  // The ranks not in an exchange wait here asleep: spinning in the next collective they would
  // take the CPU from a leader on the same node and stretch every round trip by a time slice.
  quiet_barrier(world);
  return result;
}

void reduce_histogram(const mpi::communicator& world, LatencyHistogram& h) {
  reduce_histograms(world, {&h});
}

// Three reductions for all of them (bucket counts, count and total summed; maxima maxed), not
// three each: a repetition reduces its files' histogram and its four operations'.
void reduce_histograms(const mpi::communicator& world,
                       const std::vector<LatencyHistogram*>& histograms) {
  const CollectiveWait waiting{MPI_Comm(world)};
  constexpr std::size_t kBuckets = LatencyHistogram::kBuckets;
  const std::size_t n = histograms.size();
  std::vector<std::uint64_t> counts(n * kBuckets), sums(2 * n), maxima(n);
  for (std::size_t i = 0; i < n; ++i) {
    const LatencyHistogram& h = *histograms[i];
    const auto at = counts.begin() + static_cast<std::ptrdiff_t>(i * kBuckets);
    std::copy(h.counts().begin(), h.counts().end(), at);
    sums[2 * i] = h.count();
    sums[2 * i + 1] = h.total_ns();
    maxima[i] = h.max_ns();
  }
  const auto reduce = [&](std::vector<std::uint64_t>& values, auto op) {
    if (world.rank() == kRoot) {
      std::vector<std::uint64_t> merged(values.size());
      mpi::reduce(world, values.data(), static_cast<int>(values.size()), merged.data(), op, kRoot);
      values = std::move(merged);
    } else {
      mpi::reduce(world, values.data(), static_cast<int>(values.size()), op, kRoot);
    }
  };
  reduce(counts, std::plus<std::uint64_t>());
  reduce(sums, std::plus<std::uint64_t>());
  reduce(maxima, mpi::maximum<std::uint64_t>());
  for (std::size_t i = 0; i < n; ++i) {
    LatencyHistogram& h = *histograms[i];
    const auto at = counts.begin() + static_cast<std::ptrdiff_t>(i * kBuckets);
    std::copy_n(at, kBuckets, h.counts().begin());
    h.set_totals(sums[2 * i], sums[2 * i + 1], maxima[i]);
  }
}

std::uint64_t sum_to_root(const mpi::communicator& world, std::uint64_t value) {
  const CollectiveWait waiting{MPI_Comm(world)};
  std::uint64_t sum = value;
  if (world.rank() == kRoot) {
    mpi::reduce(world, value, sum, std::plus<std::uint64_t>(), kRoot);
  } else {
    mpi::reduce(world, value, std::plus<std::uint64_t>(), kRoot);
  }
  return sum;
}

double max_to_root(const mpi::communicator& world, double value) {
  const CollectiveWait waiting{MPI_Comm(world)};
  double max = value;
  if (world.rank() == kRoot) {
    mpi::reduce(world, value, max, mpi::maximum<double>(), kRoot);
  } else {
    mpi::reduce(world, value, mpi::maximum<double>(), kRoot);
  }
  return max;
}

std::vector<std::string> gather_host_names(const mpi::communicator& world) {
  const CollectiveWait waiting{MPI_Comm(world)};
  std::vector<std::string> names;
  mpi::gather(world, mpi::environment::processor_name(), names, kRoot);
  return names;
}

std::vector<std::string> gather_strings(const mpi::communicator& world, const std::string& mine) {
  const CollectiveWait waiting{MPI_Comm(world)};
  std::vector<std::string> all;
  mpi::gather(world, mine, all, kRoot);
  return all;
}

std::vector<int> gather_ints(const mpi::communicator& world, int mine) {
  const CollectiveWait waiting{MPI_Comm(world)};
  std::vector<int> all;
  mpi::gather(world, mine, all, kRoot);
  return all;
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, static_cast<std::size_t>(length));
  // Open MPI appends release details on further lines; the first line names the library.
  return version.substr(0, version.find_first_of("\r\n,"));
}

}  // namespace comm
}  // namespace mpiwrite
