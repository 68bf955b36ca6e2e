#include "moreau/viewer/browser.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

extern char** environ;  // NOLINT: POSIX

namespace moreau::viewer {

namespace {

namespace fs = std::filesystem;

constexpr int kTimeoutS = 120;  // a page that has not loaded by then never will

bool executable(const std::string& p) {
  return !p.empty() && ::access(p.c_str(), X_OK) == 0 && !fs::is_directory(p);
}

std::string on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return executable(name) ? name : std::string();
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':'))
    if (!dir.empty() && executable(dir + "/" + name)) return dir + "/" + name;
  return {};
}

// file:// URL of a path, percent-encoding what a URL path may not hold.
std::string file_url(const std::string& path, const std::string& fragment) {
  std::error_code ec;
  const std::string abs = fs::absolute(path, ec).lexically_normal().string();
  std::string url = "file://";
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : abs) {
    if (std::isalnum(c) || std::strchr("/-._~", c)) {
      url += char(c);
    } else {
      url += '%';
      url += kHex[c >> 4];
      url += kHex[c & 15];
    }
  }
  if (!fragment.empty()) url += "#" + fragment;
  return url;
}

// A temporary directory (the browser's profile and output), removed on destruction.
class TempDir {
 public:
  TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/moreau-browser-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data())) path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs the browser headless with `extra` arguments and the page's URL; stdout goes to
// `stdout_path`. Returns "" when it exited with status 0.
std::string run_browser(const std::string& browser, const TempDir& dir,
                        const std::vector<std::string>& extra, const std::string& url,
                        const std::string& stdout_path) {
  std::vector<std::string> args = {browser, "--headless", "--no-sandbox", "--no-first-run",
                                   "--no-default-browser-check", "--disable-extensions",
                                   "--disable-background-networking", "--disable-component-update",
                                   "--mute-audio", "--hide-scrollbars",
                                   // WebGL on the CPU (SwiftShader) where there is no GPU.
                                   "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                                   "--user-data-dir=" + dir.path() + "/profile"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(url);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, stdout_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);  // its own group: killed as one
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, browser.c_str(), &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return "cannot start " + browser + ": " + std::strerror(rc);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kTimeoutS);
  int status = 0;
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR)
      return std::string("waiting for the browser: ") + std::strerror(errno);
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return browser + " did not finish within " + std::to_string(kTimeoutS) + " s";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(-pid, SIGKILL);  // helper processes the browser left behind, if any
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return browser + " failed (" +
           (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                              : "killed by signal " + std::to_string(WTERMSIG(status))) +
           ")";
  return {};
}

std::string window(int width, int height) {
  return "--window-size=" + std::to_string(width) + "," + std::to_string(height);
}

}  // namespace

std::string find_browser() {
  if (const char* env = std::getenv("MOREAU_CHROMIUM")) {
    const std::string b = env;
    if (b.empty() || b == "none") return {};
    return on_path(b);
  }
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"})
    if (std::string p = on_path(name); !p.empty()) return p;
  return {};
}

std::string screenshot(const std::string& browser, const std::string& html, const std::string& png,
                       int width, int height, const std::string& fragment) {
  TempDir dir;
  if (dir.path().empty()) return "cannot create a temporary directory";
  const std::string shot = dir.path() + "/screenshot.png";
  if (std::string why = run_browser(browser, dir, {window(width, height), "--screenshot=" + shot},
                                    file_url(html, fragment), dir.path() + "/stdout.txt");
      !why.empty())
    return why;
  std::error_code ec;
  if (!fs::is_regular_file(shot) || fs::file_size(shot, ec) == 0)
    return browser + " wrote no screenshot";
  fs::copy_file(shot, png, fs::copy_options::overwrite_existing, ec);
  if (ec) return "cannot write " + png + ": " + ec.message();
  return {};
}

Result<std::string> dump_dom(const std::string& browser, const std::string& html,
                             const std::string& fragment, int width, int height) {
  TempDir dir;
  if (dir.path().empty()) return Error{html, 0, "browser", "a temporary directory", "none"};
  const std::string out = dir.path() + "/dom.html";
  if (std::string why = run_browser(browser, dir, {window(width, height), "--dump-dom"},
                                    file_url(html, fragment), out);
      !why.empty())
    return Error{html, 0, "headless browser", "a loaded page", why};
  std::ifstream f(out, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace moreau::viewer
