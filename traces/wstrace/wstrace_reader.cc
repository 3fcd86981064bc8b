#include "traces/wstrace/wstrace_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "arch/error.h"
#include "traces/wstrace/cta_codec.h"
#include "traces/wstrace/wstrace_format.h"

namespace warpsim::traces::wstrace {

WstraceFile::WstraceFile(std::string path) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw InputError(path_ + ": cannot open: " + std::strerror(errno));
  try {
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      throw InputError(path_ + ": not a regular file");
    }
    file_bytes_ = static_cast<uint64_t>(st.st_size);
    if (file_bytes_ < kMagicBytes + kTrailerBytes) {
      throw InputError(path_ + ": truncated .wstrace file (" + std::to_string(file_bytes_) +
                       " bytes; expected at least the magic and the trailer)");
    }
    std::string bytes;
    read_at(0, kMagicBytes, bytes);
    if (bytes.compare(0, kMagicBytes, kFileMagic, kMagicBytes) != 0) {
      throw InputError(path_ + ": not a .wstrace file (expected the magic WSTRACE1)");
    }
    read_at(file_bytes_ - kTrailerBytes, kTrailerBytes, bytes);
    if (bytes.compare(16, kMagicBytes, kTrailerMagic, kMagicBytes) != 0) {
      throw InputError(path_ + ": truncated .wstrace file (expected the trailer WSTRIDX1 at the "
                       "end; was the writer interrupted?)");
    }
    const uint64_t header_offset = get_u64(bytes.data());
    const uint64_t header_size = get_u64(bytes.data() + 8);
    const uint64_t header_end = file_bytes_ - kTrailerBytes;
    if (header_offset < kMagicBytes || header_offset > header_end ||
        header_size != header_end - header_offset) {
      throw InputError(path_ + ": corrupt trailer (header offset and size outside the file)");
    }
    read_at(header_offset, static_cast<size_t>(header_size), bytes);
    ChunkDecompressor decompressor;
    decompressor.decompress(bytes, path_ + ": header", header_);

    std::vector<std::shared_ptr<OpcodeTable>> tables;
    for (int t = 0; t < header_.opcode_tables_size(); ++t) {
      const OpcodeTableProto& proto = header_.opcode_tables(t);
      if (proto.isa() >= static_cast<uint32_t>(kIsaCount)) {
        throw InputError(path_ + ": header: opcode table " + std::to_string(t) + " has an unknown ISA");
      }
      auto table = std::make_shared<OpcodeTable>(static_cast<Isa>(proto.isa()));
      for (int id = 0; id < proto.mnemonics_size(); ++id) {
        if (table->intern(proto.mnemonics(id)) != id) {
          throw InputError(path_ + ": header: opcode table " + std::to_string(t) +
                           " repeats the mnemonic '" + proto.mnemonics(id) + "'");
        }
      }
      tables.push_back(std::move(table));
    }
    for (int k = 0; k < header_.kernels_size(); ++k) {
      const KernelProto& proto = header_.kernels(k);
      const std::string where = path_ + ": kernel " + std::to_string(k);
      KernelInfo info;
      decode_kernel(proto, where, info);
      if (proto.opcode_table() >= tables.size()) {
        throw InputError(where + ": opcode table index out of range");
      }
      info.opcodes = tables[proto.opcode_table()];
      info.validate(where);
      if (proto.chunk_size_size() != proto.chunk_offset_size() ||
          proto.cta_linear_size() != proto.chunk_offset_size()) {
        throw InputError(where + ": chunk index columns differ in length");
      }
      for (int c = 0; c < proto.chunk_offset_size(); ++c) {
        const uint64_t offset = proto.chunk_offset(c);
        if (offset < kMagicBytes || offset > header_offset ||
            proto.chunk_size(c) > header_offset - offset) {
          throw InputError(where + ": chunk " + std::to_string(c) + " lies outside the file");
        }
      }
      kernels_.push_back(std::move(info));
    }
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

WstraceFile::~WstraceFile() {
  if (fd_ >= 0) ::close(fd_);
}

uint64_t WstraceFile::cta_count(size_t k) const {
  if (k >= kernels_.size()) throw InternalError("wstrace: kernel index out of range");
  return static_cast<uint64_t>(header_.kernels(static_cast<int>(k)).chunk_offset_size());
}

void WstraceFile::read_at(uint64_t offset, size_t size, std::string& out) const {
  out.resize(size);
  size_t done = 0;
  while (done < size) {
    const ssize_t got = ::pread(fd_, out.data() + done, size - done,
                                static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      throw InputError(path_ + ": read failed at byte " + std::to_string(offset + done) +
                       (got == 0 ? " (file shrank?)" : std::string(": ") + std::strerror(errno)));
    }
    done += static_cast<size_t>(got);
  }
}

void WstraceFile::read_cta(size_t k, uint64_t position, CtaReadBuffers& buffers,
                           CtaTrace& cta) const {
  if (position >= cta_count(k)) throw InternalError("wstrace: CTA position out of range");
  const KernelProto& proto = header_.kernels(static_cast<int>(k));
  const int c = static_cast<int>(position);
  const std::string where = path_ + ": kernel " + std::to_string(k) + ", CTA " +
                            std::to_string(position);
  read_at(proto.chunk_offset(c), proto.chunk_size(c), buffers.frame);
  buffers.decompressor.decompress(buffers.frame, where, buffers.proto);
  const KernelInfo& info = kernels_[k];
  decode_cta(buffers.proto, info.warp_size(), info.opcodes->size(), where, cta);
  if (!contains(info.grid, cta.index) || linear_index(cta.index, info.grid) != proto.cta_linear(c)) {
    throw InputError(where + ": CTA index outside the grid or not the one the index names");
  }
}

WstraceSource::WstraceSource(const std::string& path) : file_(path) {}

bool WstraceSource::next_kernel(KernelInfo& kernel) {
  if (next_kernel_ >= file_.kernel_count()) {
    next_kernel_ = file_.kernel_count() + 1;
    return false;
  }
  kernel = file_.kernel(next_kernel_++);
  next_cta_ = 0;
  return true;
}

bool WstraceSource::next_cta(CtaTrace& cta) {
  if (next_kernel_ == 0 || next_kernel_ > file_.kernel_count()) return false;
  const size_t k = next_kernel_ - 1;
  if (next_cta_ >= file_.cta_count(k)) return false;
  file_.read_cta(k, next_cta_++, buffers_, cta);
  return true;
}

}  // namespace warpsim::traces::wstrace
