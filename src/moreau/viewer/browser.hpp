#pragma once
// Headless Chromium (Debian's `chromium`) runs the viewer's pages without a display: the
// pictures of `moreau bench`'s report and the viewer's self-test (docs/viewer.md). WebGL runs on
// SwiftShader, the CPU renderer, so no GPU is needed.
#include <string>

#include "moreau/model/error.hpp"

namespace moreau::viewer {

// The browser to run: $MOREAU_CHROMIUM when set ("none" or empty: no browser), else the first
// of chromium, chromium-browser, google-chrome on PATH; "" when there is none.
std::string find_browser();

// Loads `html` (a file; `fragment` is appended to its URL after '#') in a width x height window
// and writes a PNG screenshot of it. Returns an empty string on success, else what went wrong.
std::string screenshot(const std::string& browser, const std::string& html, const std::string& png,
                       int width, int height, const std::string& fragment = "");

// Loads the page as screenshot() does and returns its DOM once loaded (--dump-dom).
Result<std::string> dump_dom(const std::string& browser, const std::string& html,
                             const std::string& fragment, int width, int height);

}  // namespace moreau::viewer
