// The library search path built into the tool and the worker library: every entry absolute (or
// relative to the binary's own folder through $ORIGIN), none empty. An empty or relative entry is
// resolved against the current folder, so running mishbench from a folder that holds a libm.so.6,
// libgomp.so.1 or libfmt.so.9 would load that library into the tool.
#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace mish {
namespace {

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

template <typename T>
T read_at(const std::string& bytes, uint64_t offset) {
  T value{};
  if (offset + sizeof(T) <= bytes.size()) std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

// The DT_RUNPATH and DT_RPATH strings of a 64-bit ELF file, found as the dynamic loader finds
// them: the dynamic segment, and its string table by virtual address through the loaded segments.
std::vector<std::string> search_paths(const std::string& path) {
  const std::string elf = read_bytes(path);
  const auto header = read_at<Elf64_Ehdr>(elf, 0);
  EXPECT_EQ(std::memcmp(header.e_ident, ELFMAG, SELFMAG), 0) << path << " is not an ELF file";
  EXPECT_EQ(header.e_ident[EI_CLASS], ELFCLASS64) << path;
  std::vector<Elf64_Phdr> segments;
  for (int i = 0; i < header.e_phnum; ++i)
    segments.push_back(read_at<Elf64_Phdr>(elf, header.e_phoff + uint64_t(i) * header.e_phentsize));
  const auto file_offset = [&](uint64_t address) -> uint64_t {
    for (const Elf64_Phdr& s : segments)
      if (s.p_type == PT_LOAD && address >= s.p_vaddr && address < s.p_vaddr + s.p_filesz)
        return address - s.p_vaddr + s.p_offset;
    ADD_FAILURE() << "address " << address << " is in no loaded segment of " << path;
    return elf.size();
  };
  std::vector<Elf64_Dyn> entries;
  for (const Elf64_Phdr& s : segments)
    if (s.p_type == PT_DYNAMIC)
      for (uint64_t at = s.p_offset; at + sizeof(Elf64_Dyn) <= s.p_offset + s.p_filesz;
           at += sizeof(Elf64_Dyn)) {
        entries.push_back(read_at<Elf64_Dyn>(elf, at));
        if (entries.back().d_tag == DT_NULL) break;
      }
  uint64_t strings = 0;
  for (const Elf64_Dyn& d : entries)
    if (d.d_tag == DT_STRTAB) strings = file_offset(d.d_un.d_ptr);
  std::vector<std::string> found;
  for (const Elf64_Dyn& d : entries)
    if (d.d_tag == DT_RUNPATH || d.d_tag == DT_RPATH) {
      const uint64_t at = strings + d.d_un.d_val;
      found.push_back(at < elf.size() ? std::string(elf.c_str() + at) : std::string());
    }
  return found;
}

void expect_no_folder_relative_to_the_current_one(const std::string& path) {
  const std::vector<std::string> paths = search_paths(path);
  for (const std::string& list : paths) {
    size_t start = 0;
    while (true) {
      const size_t end = list.find(':', start);
      const std::string entry = list.substr(start, end - start);
      EXPECT_TRUE(!entry.empty() && (entry[0] == '/' || entry.rfind("$ORIGIN", 0) == 0))
          << path << ": the search path '" << list << "' has the entry '" << entry
          << "', which names a folder relative to the current one";
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
}

TEST(Runpath, TheToolSearchesNoFolderRelativeToTheCurrentOne) {
  expect_no_folder_relative_to_the_current_one(MISHBENCH_BINARY);
}

TEST(Runpath, TheWorkerLibrarySearchesNoFolderRelativeToTheCurrentOne) {
  expect_no_folder_relative_to_the_current_one(MISHBENCH_WORKER_LIBRARY);
}

}  // namespace
}  // namespace mish
