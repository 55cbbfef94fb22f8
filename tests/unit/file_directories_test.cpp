// FileDirectories (the directory descriptors of a layout), and verify and removal through it.
#include "mpiwrite/sys/file_directories.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/point_plan.hpp"
#include "mpiwrite/sys/layout_directories.hpp"
#include "mpiwrite/sys/run_directory.hpp"
#include "mpiwrite/sys/verify.hpp"
#include "temp_dir.hpp"

namespace mpiwrite {
namespace {

namespace fs = std::filesystem;

// Open descriptors of this process (the test's own included).
std::size_t open_descriptors() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator("/proc/self/fd")) ++count;
  return count;
}

// Every directory of `layout` for `ranks` ranks, made under `base`.
void make_all(const std::string& base, const DirectoryLayout& layout, int ranks) {
  std::vector<std::string> made;
  for (int rank = 0; rank < ranks; ++rank) {
    make_layout_directories(base, layout.rank_directories(rank), made);
  }
}

// The inode of what `fd` is open on.
ino_t inode_of(int fd) {
  struct stat st {};
  EXPECT_EQ(::fstat(fd, &st), 0);
  return st.st_ino;
}

TEST(FileDirectories, TheFlatLayoutIsTheRunDirectoryItself) {
  testing::TempDir tmp;
  const UniqueFd base = open_directory(tmp.path());
  FileDirectories flat(base.get(), tmp.path(), nullptr);
  const FileDirectories::Handle h = flat.acquire(7);
  EXPECT_EQ(h.fd, base.get());
  EXPECT_EQ(flat.path(h), tmp.path());
  flat.release(h);
  const DirectoryLayout shared(LayoutSpec{Layout::Shared, 0, 10, Partition::Block, 2, 1});
  FileDirectories also_flat(base.get(), tmp.path(), &shared);
  EXPECT_EQ(also_flat.acquire(3).fd, base.get());
}

TEST(FileDirectories, EachFileGetsItsOwnDirectory) {
  testing::TempDir tmp;
  const DirectoryLayout layout(LayoutSpec{Layout::Thread, 3, 40, Partition::Cyclic, 2, 2});
  make_all(tmp.path(), layout, 2);
  const UniqueFd base = open_directory(tmp.path());
  FileDirectories dirs(base.get(), tmp.path(), &layout);
  for (std::uint64_t i = 1; i <= 40; ++i) {
    const FileDirectories::Handle h = dirs.acquire(i);
    const std::string expected = tmp / layout.directory_of(i);
    EXPECT_EQ(dirs.path(h), expected);
    struct stat st {};
    ASSERT_EQ(::stat(expected.c_str(), &st), 0);
    EXPECT_EQ(inode_of(h.fd), st.st_ino) << i;
    dirs.release(h);
  }
}

// Files come in order: a few descriptors stay open however many directories were visited,
// and one still in use (a uring chain in flight) is never closed under it.
TEST(FileDirectories, KeepsAFewOpenAndNeverClosesOneInUse) {
  testing::TempDir tmp;
  const DirectoryLayout layout(LayoutSpec{Layout::Shared, 1, 100, Partition::Block, 1, 1});
  make_all(tmp.path(), layout, 1);
  const UniqueFd base = open_directory(tmp.path());
  const std::size_t before = open_descriptors();
  FileDirectories dirs(base.get(), tmp.path(), &layout);
  const FileDirectories::Handle held = dirs.acquire(1);
  const ino_t held_inode = inode_of(held.fd);
  for (std::uint64_t i = 2; i <= 100; ++i) dirs.release(dirs.acquire(i));
  EXPECT_LE(open_descriptors(), before + 9);  // at most 8 kept, plus the held one
  EXPECT_EQ(inode_of(held.fd), held_inode);
  EXPECT_EQ(dirs.path(held), tmp / "d00");
  // Many in use at once: none is taken from under its user.
  std::vector<FileDirectories::Handle> all;
  for (std::uint64_t i = 2; i <= 30; ++i) all.push_back(dirs.acquire(i));
  for (std::size_t k = 0; k < all.size(); ++k) {
    EXPECT_EQ(dirs.path(all[k]), tmp / layout.directory_of(k + 2));
  }
  for (const auto& h : all) dirs.release(h);
  dirs.release(held);
  dirs.close_all();
  EXPECT_EQ(open_descriptors(), before);
}

// A writer's directories opened ahead (before the timed phase): afterwards its files open
// none, up to the limit; beyond it the rest are opened as they come.
TEST(FileDirectories, PreopensAWritersDirectoriesUpToTheLimit) {
  testing::TempDir tmp;
  const DirectoryLayout layout(LayoutSpec{Layout::Shared, 1, 40, Partition::Block, 1, 1});
  make_all(tmp.path(), layout, 1);
  const UniqueFd base = open_directory(tmp.path());
  const std::size_t before = open_descriptors();
  FileDirectories dirs(base.get(), tmp.path(), &layout);
  dirs.preopen(std::vector<Progression>{{1, 30, 1}}, 30);
  EXPECT_EQ(open_descriptors(), before + 30);
  for (std::uint64_t i = 1; i <= 30; ++i) {
    const FileDirectories::Handle h = dirs.acquire(i);
    EXPECT_EQ(dirs.path(h), tmp / layout.directory_of(i));
    dirs.release(h);
  }
  EXPECT_EQ(open_descriptors(), before + 30);  // nothing opened, nothing closed
  dirs.close_all();
  FileDirectories limited(base.get(), tmp.path(), &layout);
  limited.preopen(std::vector<Progression>{{1, 40, 1}}, 16);
  EXPECT_EQ(open_descriptors(), before + 16);
  for (std::uint64_t i = 1; i <= 40; ++i) limited.release(limited.acquire(i));
  EXPECT_EQ(open_descriptors(), before + 16);  // the rest: each replaced an unused one
}

// After a dynamic or cut-short write a later phase's share is the writers' records, many
// progressions: the directories of every one of them are opened ahead, in the order they come.
TEST(FileDirectories, PreopensTheDirectoriesOfSeveralProgressions) {
  testing::TempDir tmp;
  const DirectoryLayout layout(LayoutSpec{Layout::Shared, 1, 40, Partition::Block, 1, 1});
  make_all(tmp.path(), layout, 1);  // 40 directories of one file each
  const UniqueFd base = open_directory(tmp.path());
  const std::size_t before = open_descriptors();
  FileDirectories dirs(base.get(), tmp.path(), &layout);
  const std::vector<Progression> records{{3, 2, 1}, {20, 3, 5}, {9, 1, 1}};  // 3 4 20 25 30 9
  dirs.preopen(records, 30);
  EXPECT_EQ(open_descriptors(), before + 6);
  const std::uint64_t opened = dirs.opened();
  for (std::uint64_t i : {9u, 30u, 3u, 25u, 4u, 20u}) dirs.release(dirs.acquire(i));
  EXPECT_EQ(dirs.opened(), opened);  // every one open already
  EXPECT_EQ(open_descriptors(), before + 6);
  dirs.close_all();
  EXPECT_EQ(open_descriptors(), before);
}

// The later phases' files come in no directory order (another rank's share, --random-order):
// kept open up to the limit, each directory is opened once however the files alternate.
TEST(FileDirectories, KeptOpenEachDirectoryIsOpenedOnceInAnyOrder) {
  testing::TempDir tmp;
  const DirectoryLayout layout(LayoutSpec{Layout::Shared, 1, 20, Partition::Block, 1, 1});
  make_all(tmp.path(), layout, 1);  // 20 directories of one file each
  const UniqueFd base = open_directory(tmp.path());
  const std::size_t before = open_descriptors();
  for (const std::size_t limit : {std::size_t{0}, std::size_t{20}}) {
    FileDirectories dirs(base.get(), tmp.path(), &layout);
    dirs.keep_open(limit);
    for (int round = 0; round < 3; ++round) {
      for (std::uint64_t k = 0; k < 20; ++k) {
        const std::uint64_t i = 1 + (k * 7) % 20;  // every file, out of order
        const FileDirectories::Handle h = dirs.acquire(i);
        EXPECT_EQ(dirs.path(h), tmp / layout.directory_of(i));
        dirs.release(h);
      }
    }
    if (limit == 0) {
      EXPECT_GT(dirs.opened(), 40u);  // the few kept: nearly every file reopened its directory
      EXPECT_LE(open_descriptors(), before + 8);
    } else {
      EXPECT_EQ(dirs.opened(), 20u);
      EXPECT_EQ(open_descriptors(), before + 20);
    }
    dirs.close_all();
    EXPECT_EQ(open_descriptors(), before);
  }
}

TEST(FileDirectories, NeverFollowsALinkInPlaceOfALayoutDirectory) {
  testing::TempDir tmp;
  const DirectoryLayout layout(LayoutSpec{Layout::Thread, 0, 4, Partition::Block, 1, 2});
  fs::create_directory(tmp / "outside");
  fs::create_directory(tmp / "run");
  fs::create_directory(tmp / "outside/thread0");
  fs::create_directory_symlink(tmp / "outside", tmp / "run/rank0");  // the parent is the link
  const UniqueFd base = open_directory(tmp / "run");
  FileDirectories dirs(base.get(), tmp / "run", &layout);
  try {
    dirs.acquire(1);
    FAIL() << "followed the link";
  } catch (const IoError& e) {
    EXPECT_EQ(e.path(), tmp / "run/rank0/thread0");
    // O_NOFOLLOW | O_DIRECTORY on a link: ENOTDIR (Linux), or ELOOP (POSIX's O_NOFOLLOW).
    EXPECT_TRUE(e.code().value() == ENOTDIR || e.code().value() == ELOOP) << e.what();
  }
}

TEST(LayoutFiles, VerifyAndRemovalFindEveryFileInItsDirectory) {
  testing::TempDir tmp;
  const DirectoryLayout layout(LayoutSpec{Layout::Rank, 2, 9, Partition::Block, 3, 1});
  make_all(tmp.path(), layout, 3);
  for (std::uint64_t i = 1; i <= 9; ++i) {
    std::ofstream(tmp / (layout.directory_of(i) + "/write" + std::to_string(i) + ".txt"))
        << "x\nx\n";
  }
  const FilePattern pattern = parse_pattern("write{}.txt");
  FileVerifier verifier(pattern, "x", 2);
  EXPECT_EQ(verifier.verify(tmp.path(), {1, 9, 1}, nullptr, 3, &layout).mismatches, 0u);
  // Without the layout every file is missing from the run directory.
  EXPECT_EQ(verifier.verify(tmp.path(), {1, 9, 1}).mismatches, 9u);
  // A layout directory gone: its files are wrong, named with their directory; not a throw.
  fs::remove_all(tmp / layout.directory_of(9));
  const VerifyResult gone = verifier.verify(tmp.path(), {1, 9, 1}, nullptr, 3, &layout);
  EXPECT_EQ(gone.mismatches, 1u);
  ASSERT_EQ(gone.problems.size(), 1u);
  EXPECT_NE(gone.problems[0].find(layout.directory_of(9) + "/write9.txt"), std::string::npos)
      << gone.problems[0];
  // Removal: every file of the layout, the gone directory's skipped; the directories stay.
  EXPECT_EQ(remove_files(tmp.path(), pattern, {1, 9, 1}, nullptr, false, &layout), 8u);
  for (std::uint64_t i = 1; i <= 8; ++i) {
    EXPECT_TRUE(fs::is_empty(tmp / layout.directory_of(i))) << layout.directory_of(i);
  }
}

TEST(LayoutFiles, ACreatedRecordIsRemovedFromItsDirectories) {
  testing::TempDir tmp;
  const DirectoryLayout layout(LayoutSpec{Layout::Shared, 3, 10, Partition::Dynamic, 2, 1});
  make_all(tmp.path(), layout, 2);
  for (std::uint64_t i : {1u, 2u, 5u, 9u}) {
    std::ofstream(tmp / (layout.directory_of(i) + "/write" + std::to_string(i) + ".txt")) << "x";
  }
  std::ofstream(tmp / (layout.directory_of(3) + "/write3.txt")) << "not ours";
  CreatedFiles created;
  created.take({1, 3, 1});  // 1, 2, 3 taken; 3 not created (somebody else's)
  created.not_created.push_back(3);
  created.take({5, 1, 1});
  created.take({9, 1, 1});
  const FilePattern pattern = parse_pattern("write{}.txt");
  EXPECT_EQ(remove_created(tmp.path(), pattern, created, nullptr, &layout), 4u);
  EXPECT_TRUE(fs::exists(tmp / (layout.directory_of(3) + "/write3.txt")));
}

// As the run checks --dir: with its points planned for `ranks` ranks.
bool check_on(const RunConfig& config, int ranks) {
  return check_directory(config, plan_points(config, ranks));
}

TEST(LayoutCheck, APlainRunRefusesExistingLayoutDirectoriesBeforeCreatingAnything) {
  testing::TempDir tmp;
  RunConfig c;
  c.dir = tmp / "run";
  c.files = 8;
  c.layouts = {Layout::Rank};
  fs::create_directory(c.dir);
  EXPECT_NO_THROW(check_on(c, 4));
  fs::create_directory(tmp / "run/rank3");
  EXPECT_THROW(check_on(c, 4), UsageError);
  EXPECT_NO_THROW(check_on(c, 3));  // with 3 ranks there is no rank3
  c.overwrite = true;
  EXPECT_NO_THROW(check_on(c, 4));  // a real directory: --overwrite writes into it
  std::ofstream(tmp / "run/rank3/write8.txt") << "earlier";
  EXPECT_NO_THROW(check_on(c, 4));  // a regular file of its own: rewritten
  c.cleanup = true;
  EXPECT_THROW(check_on(c, 4), UsageError);  // ... but not ours to remove
  c.cleanup = false;
  fs::remove_all(tmp / "run/rank3");
  fs::create_directory(tmp / "elsewhere");
  fs::create_directory_symlink(tmp / "elsewhere", tmp / "run/rank3");
  EXPECT_THROW(check_on(c, 4), UsageError);  // never through a link
}

}  // namespace
}  // namespace mpiwrite
