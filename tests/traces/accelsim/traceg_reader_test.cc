// Malformed Accel-Sim input: every error is an InputError naming the file, the line and what was
// expected; truncated or corrupt .xz data is reported, never a crash or a hang.
#include "traces/accelsim/traceg_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "arch/error.h"
#include "tests/traces/trace_file_kernels.h"
#include "traces/accelsim/accelsim_source.h"

namespace warpsim::traces::accelsim {
namespace {

using traces::testing::read_all;
using traces::testing::temp_dir;

const std::string kHeader =
    "-kernel name = k\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n"
    "-shmem = 0\n-nregs = 8\n-binary version = 90\n-accelsim tracer version = 5\n\n"
    "#traces format = ...\n";  // 10 lines

/// Reads `text` as kernel.traceg and returns the InputError message ("" when none).
std::string error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    TracegReader reader(in, "kernel.traceg");
    reader.read_header(nullptr);
    CtaTrace cta;
    while (reader.next_cta(cta)) {
    }
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string cta(const std::string& lines, const std::string& block = "0,0,0") {
  return "#BEGIN_TB\nthread block = " + block + "\nwarp = 0\n" + lines + "#END_TB\n";
}

TEST(TracesAccelSimReaderTest, ValidInputReads) {
  EXPECT_EQ(error_of(kHeader + cta("insts = 1\n0000 ffffffff 0 EXIT 0 0 0 \n")), "");
}

struct BadCase {
  std::string text;
  std::string message;
};

class TracesAccelSimReaderErrorTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(TracesAccelSimReaderErrorTest, NamesFileLineAndExpectation) {
  const std::string message = error_of(GetParam().text);
  EXPECT_NE(message.find(GetParam().message), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TracesAccelSimReaderErrorTest,
    ::testing::Values(
        BadCase{kHeader + cta("insts = 1\n0000 zzzz 0 EXIT 0 0\n"),
                "kernel.traceg:15: expected a hex active mask, got 'zzzz'"},
        BadCase{kHeader + cta("insts = 1\n0000 1ffffffff 0 EXIT 0 0\n"),
                "kernel.traceg:15: expected an active mask within 32 lanes"},
        // popcount(0x7) - 1 = 2 deltas, then IMM; one delta too many is not an immediate pair.
        BadCase{kHeader + cta("insts = 1\n0000 00000007 1 R1 LDG.E 1 R2 4 2 0x100 4 4 0 9\n"),
                "kernel.traceg:15: expected end of line, got '9'"},
        BadCase{kHeader + cta("insts = 1\n0000 00000007 1 R1 LDG.E 1 R2 4 2 0x100\n"),
                "kernel.traceg:15: expected a decimal address delta"},
        BadCase{kHeader + cta("insts = 1\n0000 00000007 1 R1 LDG.E 1 R2 4 3 0x100\n"),
                "expected an address mode (0 list, 1 base+stride, 2 base+deltas), got '3'"},
        BadCase{kHeader + cta("insts = 1\n0000 ffffffff 1 Q1 MOV 0 0\n"),
                "kernel.traceg:15: expected a destination register, got 'Q1'"},
        BadCase{kHeader + cta("insts = 1\n0000 ffffffff 0 EXIT 7 0\n"),
                "expected a source count (0-6), got '7'"},
        BadCase{kHeader + cta("insts = 3\n0000 ffffffff 0 EXIT 0 0\n"),
                "expected a hex PC, got '#END_TB'"},
        BadCase{kHeader + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                          "0000 ffffffff 0 EXIT 0 0\n",
                "kernel.traceg:15: expected #END_TB before the end of the file"},
        BadCase{kHeader + cta("insts = 0\n", "5,0,0"),
                "expected a thread block inside the grid (2,1,1)"},
        BadCase{kHeader + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\ninsts = 0\n#END_TB\n",
                "expected 'warp = <n>' with n below the 2 warps of a CTA"},
        BadCase{kHeader + "#BEGIN_TB\nthread block = 0,0\n#END_TB\n",
                "kernel.traceg:12: expected 'thread block = x,y,z'"},
        BadCase{kHeader + "garbage\n", "kernel.traceg:11: expected #BEGIN_TB, got 'garbage'"},
        BadCase{"-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n#\n",
                "expected '-binary version = <compute capability x 10>'"},
        BadCase{"-kernel name = k\n-grid dim = (1,x,1)\n", "kernel.traceg:2: expected (x,y,z)"},
        BadCase{"-kernel name = k\n", "expected the '#traces format' line"},
        BadCase{"-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (4096,1,1)\n"
                "-binary version = 80\n#\n",
                "expected at most 1024 threads per CTA"}));

TEST(TracesAccelSimReaderTest, Version6NeedsGmmaFlagAndTmaFields) {
  std::string header = kHeader;
  header.replace(header.find("version = 5"), 11, "version = 6");
  EXPECT_NE(error_of(header + cta("insts = 1\n0000 ffffffff 0 UTMALDG.2D 0 0 0x10 0\n"))
                .find("expected a TMA byte count"),
            std::string::npos);
  EXPECT_NE(error_of(header + cta("insts = 1\n0000 ffffffff 0 UTMALDG.2D 0 0 0x10 0 4294967296 "
                                  "0 0 1 0x1000\n"))
                .find("expected a TMA byte count of at most 262144, got '4294967296'"),
            std::string::npos);
  EXPECT_NE(error_of(header + cta("insts = 1\n0000 ffffffff 1 R4 HGMMA.64x64x16 0 2 0\n"))
                .find("expected a GMMA commit-group flag (0 or 1), got '2'"),
            std::string::npos);
  EXPECT_NE(error_of(header + cta("insts = 1\n0000 ffffffff 1 R4 MOV 0 0 1 Val 2 0x1 0x2\n"))
                .find("expected a value count (1 or 32), got '2'"),
            std::string::npos);
  EXPECT_EQ(error_of(header + cta("insts = 1\n0000 ffffffff 1 R4 MOV 0 0 1 Val 1 0x1\n")), "");
}

TEST(TracesAccelSimReaderTest, KernelListErrors) {
  const std::string dir = temp_dir("list");
  std::ofstream(dir + "/kernelslist.g") << "MemcpyHtoD,0x100,12\nMemcpyHtoD,0xZZ,3\n";
  try {
    AccelSimSource source(dir + "/kernelslist.g");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("kernelslist.g:2: expected a hex device address"),
              std::string::npos)
        << e.what();
  }
  std::ofstream(dir + "/kernelslist.g") << "kernel-1-ctx_0x1.tracez\n";
  EXPECT_THROW(AccelSimSource(dir + "/kernelslist.g"), InputError);
  std::ofstream(dir + "/kernelslist.g") << "kernel-9.traceg\n";
  AccelSimSource missing(dir + "/kernelslist.g");
  KernelInfo info;
  EXPECT_THROW(missing.next_kernel(info), InputError);
}

TEST(TracesAccelSimReaderTest, TruncatedAndCorruptXzAreReported) {
  const char* root = std::getenv("WARPSIM_SOURCE_DIR");
  const std::string good = std::string(root ? root : ".") + "/tests/fixtures/accelsim/v5/kernel-1.traceg.xz";
  std::ifstream in(good, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 100u);
  const std::string dir = temp_dir("xz");
  for (const std::string& bad : {bytes.substr(0, bytes.size() / 2),
                                 bytes.substr(0, 40) + std::string(64, '\x5a') + bytes.substr(104)}) {
    std::ofstream(dir + "/kernel-1.traceg.xz", std::ios::binary | std::ios::trunc) << bad;
    AccelSimSource source(dir + "/kernel-1.traceg.xz");
    EXPECT_THROW(read_all(source), InputError);
  }
}

}  // namespace
}  // namespace warpsim::traces::accelsim
