#include "output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace moreau::cli {

std::string AtomicFile::open(const std::string& path) {
  discard();
  if (path.empty()) return "output path is empty";
  const size_t slash = path.find_last_of('/');
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty() || base == "." || base == "..")
    return "output '" + path + "': expected a file name, got a directory";
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return "output '" + path + "' is a directory";
  // mkstemp in the destination directory, so that the final rename() is atomic.
  const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  std::string templ = dir + "." + base + ".tmp-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  const int fd = ::mkstemp(buf.data());
  if (fd < 0)
    return "cannot write output '" + path + "': directory '" +
           (dir.empty() ? std::string(".") : dir) + "' is missing or not writable (" +
           std::strerror(errno) + ")";
  // mkstemp creates mode 0600; give the result the usual 0666 & ~umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  f_ = ::fdopen(fd, "w");
  tmp_ = buf.data();
  path_ = path;
  if (!f_) {
    ::close(fd);
    ::unlink(tmp_.c_str());
    tmp_.clear();
    return "cannot write output '" + path + "': " + std::strerror(errno);
  }
  return {};
}

std::string AtomicFile::commit() {
  if (!f_) return "output '" + path_ + "' is not open";
  const bool write_ok = std::ferror(f_) == 0 && std::fflush(f_) == 0;
  const bool close_ok = std::fclose(f_) == 0;
  f_ = nullptr;
  if (!write_ok || !close_ok) {
    const std::string why = std::strerror(errno);
    discard();
    return "writing output '" + path_ + "' failed: " + why;
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    discard();
    return "cannot rename the temporary file to '" + path_ + "': " + why;
  }
  tmp_.clear();
  return {};
}

void AtomicFile::discard() {
  if (f_) std::fclose(f_);
  f_ = nullptr;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
}

std::string file_extension(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  const size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

}  // namespace moreau::cli
