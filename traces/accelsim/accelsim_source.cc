#include "traces/accelsim/accelsim_source.h"

#include <boost/iostreams/device/file.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <filesystem>
#include <fstream>

#include "arch/error.h"
#include "traces/accelsim/tokens.h"

namespace warpsim::traces::accelsim {
namespace {

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(),
                                                      suffix) == 0;
}

/// An ifstream with a larger buffer (reads of large traces are sequential).
class BufferedFile : public std::ifstream {
 public:
  explicit BufferedFile(const std::string& path) : buffer_(1 << 20) {
    rdbuf()->pubsetbuf(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    open(path, std::ios::binary);
  }

 private:
  std::vector<char> buffer_;
};

}  // namespace

std::unique_ptr<std::istream> open_trace_stream(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw InputError(path + ": no such trace file");
  if (ends_with(path, ".xz")) {
    auto stream = std::make_unique<boost::iostreams::filtering_istream>();
    stream->push(boost::iostreams::lzma_decompressor());
    stream->push(boost::iostreams::file_source(path, std::ios::binary));
    if (!stream->component<boost::iostreams::file_source>(1)->is_open()) {
      throw InputError(path + ": cannot open");
    }
    return stream;
  }
  auto file = std::make_unique<BufferedFile>(path);
  if (!*file) throw InputError(path + ": cannot open");
  return file;
}

std::vector<KernelListEntry> parse_kernel_list(std::istream& in, const std::string& name,
                                               const std::string& folder) {
  std::vector<KernelListEntry> entries;
  std::vector<MemcpyEvent> pending;
  std::string line;
  uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.starts_with("MemcpyHtoD")) {
      std::string spaced = line;
      for (char& c : spaced) c = c == ',' ? ' ' : c;
      Tokens tokens(spaced, name, number);
      tokens.next("MemcpyHtoD");
      const uint64_t address = tokens.next_hex("a hex device address after 'MemcpyHtoD,'");
      const uint64_t bytes = tokens.next_decimal("a decimal byte count");
      tokens.expect_end();
      pending.push_back(MemcpyEvent{address, bytes});
      continue;
    }
    if (ends_with(line, ".tracez")) {
      throw InputError(name + ":" + std::to_string(number) +
                       ": the .tracez container is not supported; expected .traceg or .traceg.xz");
    }
    if (ends_with(line, ".traceg") || ends_with(line, ".traceg.xz")) {
      const std::filesystem::path entry(line);
      const std::string path = entry.is_absolute() ? line : (std::filesystem::path(folder) / entry).string();
      entries.push_back(KernelListEntry{path, std::move(pending)});
      pending.clear();
    }
  }
  if (in.bad()) throw InputError(name + ": read error");
  return entries;
}

AccelSimSource::AccelSimSource(const std::string& path) : path_(path) {
  if (ends_with(path, ".traceg") || ends_with(path, ".traceg.xz")) {
    entries_.push_back(KernelListEntry{path, {}});
    return;
  }
  const auto list = open_trace_stream(path);
  const std::string folder = std::filesystem::path(path).parent_path().string();
  entries_ = parse_kernel_list(*list, path, folder.empty() ? "." : folder);
}

AccelSimSource::~AccelSimSource() = default;

bool AccelSimSource::next_kernel(KernelInfo& kernel) {
  reader_.reset();
  stream_.reset();
  if (next_entry_ >= entries_.size()) return false;
  const KernelListEntry& entry = entries_[next_entry_++];
  stream_ = open_trace_stream(entry.path);
  reader_ = std::make_unique<TracegReader>(*stream_, entry.path);
  kernel = reader_->read_header([this](Isa isa) {
    auto& table = tables_[isa];
    if (!table) table = std::make_shared<OpcodeTable>(isa);
    return table;
  });
  kernel.memcpys_before = entry.memcpys_before;
  return true;
}

bool AccelSimSource::next_cta(CtaTrace& cta) { return reader_ && reader_->next_cta(cta); }

}  // namespace warpsim::traces::accelsim
