// Replays every fuzz corpus file through the fuzz targets' entry points (fuzz/targets.hpp) in an
// ordinary build: the seeds under fuzz/corpus/<target>/ must load, and every input under
// fuzz/corpus/<target>/regressions/ (crashers the fuzzers found, kept after their fix) must end
// in a value or an Error. Under the sanitizer build (docs/reliability.md) a memory error or
// undefined behaviour in a loader fails the test as it fails the fuzzer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "targets.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

class CorpusReplay : public ::testing::TestWithParam<moreau::fuzz::Target> {
 protected:
  // The inputs name meshes and included files relative to the repository root.
  void SetUp() override { fs::current_path(MOREAU_SOURCE_DIR); }
  fs::path dir() const { return fs::path("fuzz/corpus") / GetParam().name; }
};

TEST_P(CorpusReplay, SeedsLoad) {
  const std::vector<fs::path> seeds = files_in(dir());
  ASSERT_FALSE(seeds.empty()) << dir() << " has no seeds";
  for (const fs::path& p : seeds) {
    const std::vector<uint8_t> b = read_bytes(p);
    EXPECT_TRUE(GetParam().entry(b.data(), b.size())) << p << " should load";
  }
}

TEST_P(CorpusReplay, RegressionsEndInAValueOrAnError) {
  int n = 0;
  for (const fs::path& p : files_in(dir() / "regressions")) {
    SCOPED_TRACE(p.string());
    const std::vector<uint8_t> b = read_bytes(p);
    GetParam().entry(b.data(), b.size());  // a crash or a sanitizer report fails the test
    ++n;
  }
  RecordProperty("inputs", n);
}

// Bytes the loaders must reject without a crash, for every target (the empty input, a lone byte,
// a truncated seed).
TEST_P(CorpusReplay, TruncatedSeedsEndInAValueOrAnError) {
  for (const fs::path& p : files_in(dir())) {
    const std::vector<uint8_t> b = read_bytes(p);
    for (size_t len : {size_t{0}, size_t{1}, b.size() / 2, b.size() > 0 ? b.size() - 1 : 0}) {
      SCOPED_TRACE(p.string() + " cut to " + std::to_string(len) + " bytes");
      GetParam().entry(b.data(), len);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fuzz, CorpusReplay, ::testing::ValuesIn(moreau::fuzz::kTargets),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
