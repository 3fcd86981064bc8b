#include "traces/wstrace/wstrace_writer.h"

#include <array>

#include "arch/error.h"
#include "traces/wstrace/cta_codec.h"
#include "traces/wstrace/wstrace_format.h"

namespace warpsim::traces::wstrace {

WstraceWriter::WstraceWriter(const std::string& path, int level)
    : path_(path), out_(path, std::ios::binary | std::ios::trunc), compressor_(level) {
  if (!out_) throw InputError(path + ": cannot open for writing");
  write(kFileMagic, kMagicBytes);
  header_.set_tool("warpsim");
  header_.set_tool_version(kWriterVersion);
}

void WstraceWriter::write(const char* data, size_t size) {
  out_.write(data, static_cast<std::streamsize>(size));
  if (!out_) throw InputError(path_ + ": write failed (disk full?)");
  offset_ += size;
}

void WstraceWriter::begin_kernel(const KernelInfo& kernel) {
  if (finished_) throw InternalError("wstrace writer: begin_kernel after finish");
  if (!kernel.opcodes) throw InputError(path_ + ": kernel '" + kernel.name + "' has no opcodes");
  current_ = header_.add_kernels();
  encode_kernel(kernel, *current_);
  const auto [it, inserted] =
      table_index_.emplace(kernel.opcodes.get(), static_cast<uint32_t>(tables_.size()));
  if (inserted) tables_.push_back(kernel.opcodes);
  current_->set_opcode_table(it->second);
  ++stats_.kernels;
}

void WstraceWriter::add_cta(const CtaTrace& cta) {
  if (current_ == nullptr || finished_) {
    throw InternalError("wstrace writer: add_cta outside a kernel");
  }
  encode_cta(cta, cta_proto_);
  uint64_t raw = 0;
  const std::span<const char> frame = compressor_.compress(cta_proto_, &raw);
  const Dim3 grid{current_->grid().x(), current_->grid().y(), current_->grid().z()};
  current_->add_chunk_offset(offset_);
  current_->add_chunk_size(static_cast<uint32_t>(frame.size()));
  current_->add_cta_linear(linear_index(cta.index, grid));
  const uint64_t instructions = cta.instruction_count();
  current_->set_instructions(current_->instructions() + instructions);
  write(frame.data(), frame.size());
  stats_.ctas += 1;
  stats_.instructions += instructions;
  stats_.uncompressed_bytes += raw;
}

WriteStats WstraceWriter::finish() {
  if (finished_) throw InternalError("wstrace writer: finish called twice");
  for (const auto& table : tables_) {
    OpcodeTableProto& t = *header_.add_opcode_tables();
    t.set_isa(static_cast<uint32_t>(table->isa()));
    for (size_t id = 0; id < table->size(); ++id) {
      t.add_mnemonics(table->info(static_cast<OpcodeId>(id)).mnemonic);
    }
  }
  header_.set_uncompressed_bytes(stats_.uncompressed_bytes);
  const uint64_t header_offset = offset_;
  const std::span<const char> frame = compressor_.compress(header_);
  write(frame.data(), frame.size());
  std::array<char, kTrailerBytes> trailer{};
  put_u64(trailer.data(), header_offset);
  put_u64(trailer.data() + 8, frame.size());
  std::copy(kTrailerMagic, kTrailerMagic + kMagicBytes, trailer.data() + 16);
  write(trailer.data(), trailer.size());
  out_.close();
  if (!out_) throw InputError(path_ + ": write failed on close");
  finished_ = true;
  stats_.file_bytes = offset_;
  return stats_;
}

WriteStats write_wstrace(KernelSource& source, const std::string& path, int level) {
  WstraceWriter writer(path, level);
  KernelInfo kernel;
  CtaTrace cta;
  while (source.next_kernel(kernel)) {
    writer.begin_kernel(kernel);
    while (source.next_cta(cta)) writer.add_cta(cta);
  }
  return writer.finish();
}

}  // namespace warpsim::traces::wstrace
