#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "arch/error.h"
#include "tests/traces/trace_file_kernels.h"
#include "traces/builder.h"
#include "traces/wstrace/wstrace_reader.h"
#include "traces/wstrace/wstrace_writer.h"

namespace warpsim::traces::wstrace {
namespace {

using traces::testing::edge_case_kernel;
using traces::testing::expect_same_info;
using traces::testing::line_info_kernel;
using traces::testing::read_all;
using traces::testing::temp_dir;

std::vector<KernelTrace> sample_kernels() {
  std::vector<KernelTrace> kernels;
  kernels.push_back(edge_case_kernel());
  kernels.push_back(line_info_kernel());
  KernelTrace copy = edge_case_kernel();
  copy.info.source_gpu = "NVIDIA H200";
  copy.info.dynamic_shared_bytes = 1024;
  copy.info.trace_version = 0;
  kernels.push_back(std::move(copy));
  return kernels;
}

std::string write_sample(const std::string& name) {
  const std::string path = temp_dir(name) + "/sample.wstrace";
  InMemoryKernelSource source(sample_kernels());
  const WriteStats stats = write_wstrace(source, path);
  EXPECT_EQ(stats.kernels, 3u);
  EXPECT_EQ(stats.ctas, 6u);
  EXPECT_EQ(stats.file_bytes, std::filesystem::file_size(path));
  return path;
}

TEST(TracesWstraceTest, RoundTripIsExact) {
  const std::string path = write_sample("exact");
  WstraceSource source(path);
  const std::vector<KernelTrace> back = read_all(source);
  const std::vector<KernelTrace> original = sample_kernels();
  ASSERT_EQ(back.size(), original.size());
  for (size_t k = 0; k < back.size(); ++k) {
    expect_same_info(original[k].info, back[k].info);
    ASSERT_EQ(back[k].info.opcodes->size(), original[k].info.opcodes->size());
    for (size_t id = 0; id < back[k].info.opcodes->size(); ++id) {
      EXPECT_EQ(back[k].info.opcodes->info(static_cast<OpcodeId>(id)).mnemonic,
                original[k].info.opcodes->info(static_cast<OpcodeId>(id)).mnemonic);
    }
    ASSERT_EQ(back[k].ctas.size(), original[k].ctas.size());
    for (size_t c = 0; c < back[k].ctas.size(); ++c) EXPECT_EQ(back[k].ctas[c], original[k].ctas[c]);
  }
  EXPECT_EQ(source.file().header().tool(), "warpsim");
  EXPECT_EQ(source.file().header().tool_version(), kWriterVersion);
}

TEST(TracesWstraceTest, CtasReadInAnyOrder) {
  const std::string path = write_sample("random");
  const WstraceFile file(path);
  const std::vector<KernelTrace> original = sample_kernels();
  CtaReadBuffers buffers;
  CtaTrace cta;
  for (size_t k : {2u, 0u, 1u}) {
    for (uint64_t c : {1u, 0u}) {
      file.read_cta(k, c, buffers, cta);
      EXPECT_EQ(cta, original[k].ctas[c]);
    }
  }
  EXPECT_EQ(file.header().kernels(1).cta_linear(1), 1u);
}

TEST(TracesWstraceTest, CtasReadInParallel) {
  const std::string path = write_sample("parallel");
  const WstraceFile file(path);
  const std::vector<KernelTrace> original = sample_kernels();
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      CtaReadBuffers buffers;
      CtaTrace cta;
      for (int round = 0; round < 20; ++round) {
        for (size_t k = 0; k < file.kernel_count(); ++k) {
          for (uint64_t c = 0; c < file.cta_count(k); ++c) {
            const uint64_t position = (c + static_cast<uint64_t>(t)) % file.cta_count(k);
            file.read_cta(k, position, buffers, cta);
            if (!(cta == original[k].ctas[position])) ++mismatches[static_cast<size_t>(t)];
          }
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Opens the file and reads every CTA, expecting InputError (never a crash).
void expect_rejected(const std::string& path, const std::string& fragment) {
  try {
    WstraceSource source(path);
    read_all(source);
    FAIL() << "no error for " << fragment;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(TracesWstraceTest, TruncatedAndCorruptFilesAreReported) {
  const std::string path = write_sample("corrupt");
  const std::string bytes = read_file(path);
  const std::string bad = path + ".bad";
  write_file(bad, bytes.substr(0, bytes.size() / 2));
  expect_rejected(bad, "truncated .wstrace file");
  write_file(bad, "WSTRACE1");
  expect_rejected(bad, "truncated .wstrace file");
  write_file(bad, "hello, this is not a trace at all........");
  expect_rejected(bad, "not a .wstrace file");
  // A flipped byte inside the first CTA chunk: zstd's checksum or the record check catches it.
  std::string flipped = bytes;
  flipped[20] = static_cast<char>(flipped[20] ^ 0x5A);
  write_file(bad, flipped);
  expect_rejected(bad, "kernel 0, CTA 0");
  // A trailer pointing outside the file.
  std::string trailer = bytes;
  trailer[trailer.size() - 24] = static_cast<char>(0xFF);
  trailer[trailer.size() - 17] = static_cast<char>(0x7F);
  write_file(bad, trailer);
  expect_rejected(bad, "corrupt trailer");
  EXPECT_THROW(WstraceFile(path + ".missing"), InputError);
}

}  // namespace
}  // namespace warpsim::traces::wstrace
