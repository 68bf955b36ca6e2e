// MJCF <include file="..."/>: the children of the included file's <mujoco> root replace the
// element, recursively (docs/model-import.md, "Includes"). The expansion is textual, so that the
// rest of the importer sees one document, with a line map back to (file, line) for its messages.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "moreau/io/mjcf_internal.hpp"

namespace moreau::mjcf {

namespace {

struct Expander {
  ExpandedXml& out;
  std::vector<std::string> stack;  // canonical paths of the files being expanded
  bool line_start = true;

  void emit(const std::string& text, size_t b, size_t e, int file, int line) {
    for (size_t i = b; i < e; ++i) {
      if (line_start) out.origin.push_back({file, line});
      line_start = text[i] == '\n';
      line += line_start;
      out.text += text[i];
    }
  }

  // Position of the next element start "<tag" at or after `from`, outside comments, CDATA and
  // processing instructions; npos if none.
  static size_t find_tag(const std::string& t, const std::string& tag, size_t from) {
    const std::string open = "<" + tag;
    for (size_t i = t.find('<', from); i != std::string::npos; i = t.find('<', i + 1)) {
      const char* skip_to = t.compare(i, 4, "<!--") == 0        ? "-->"
                            : t.compare(i, 9, "<![CDATA[") == 0 ? "]]>"
                            : t.compare(i, 2, "<?") == 0        ? "?>"
                                                                : nullptr;
      if (skip_to) {
        i = t.find(skip_to, i);
        if (i == std::string::npos) return i;
        continue;
      }
      const size_t k = i + open.size();
      if (t.compare(i, open.size(), open) == 0 && k < t.size() &&
          (std::isspace(static_cast<unsigned char>(t[k])) || t[k] == '/' || t[k] == '>'))
        return i;
    }
    return std::string::npos;
  }

  static std::vector<size_t> include_tags(const std::string& t) {
    std::vector<size_t> at;
    for (size_t i = find_tag(t, "include", 0); i != std::string::npos;
         i = find_tag(t, "include", i + 1))
      at.push_back(i);
    return at;
  }

  static int line_at(const std::string& t, size_t pos) {
    return 1 + static_cast<int>(std::count(t.begin(), t.begin() + pos, '\n'));
  }

  static void collect(const Element* e, std::vector<const Element*>& v) {
    for (const Element* ch = e->FirstChildElement(); ch; ch = ch->NextSiblingElement()) {
      if (std::strcmp(ch->Name(), "include") == 0) v.push_back(ch);
      collect(ch, v);
    }
  }

  // Expands `text` (file index `file`, directory `dir`) between b and e (the whole document
  // for the main file, the root's content for an included one).
  void expand(const std::string& text, int file, const std::string& dir, size_t b, size_t e) {
    const std::string& name = out.files[file];
    tinyxml2::XMLDocument doc;
    if (doc.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS)
      throw ErrorException(
          Error{name, doc.ErrorLineNum(), "XML", "well-formed XML", xml_error_text(doc)});
    std::vector<const Element*> incs;
    if (doc.RootElement()) collect(doc.RootElement(), incs);
    const std::vector<size_t> tags = include_tags(text);
    if (tags.size() != incs.size())
      throw ErrorException(Error{name, 0, "<include>", "include elements outside comments",
                                 std::to_string(tags.size()) + " '<include' in the text, " +
                                     std::to_string(incs.size()) + " elements"});
    size_t pos = b;
    for (size_t k = 0; k < tags.size(); ++k) {
      if (tags[k] < b || tags[k] >= e) continue;
      const Element* inc = incs[k];
      const int line = inc->GetLineNum();
      // The element's end: "/>" or "</include>".
      size_t end = text.find('>', tags[k]);
      if (end != std::string::npos && text[end - 1] != '/') {
        const size_t close = text.find("</include>", end);
        end = close == std::string::npos ? std::string::npos : close + 9;
      }
      if (end == std::string::npos)
        throw ErrorException(Error{name, line, "<include>", "a closed element", "no end"});
      emit(text, pos, tags[k], file, line_at(text, pos));
      include(inc, name, dir);
      pos = end + 1;
    }
    emit(text, pos, e, file, line_at(text, pos));
  }

  void include(const Element* inc, const std::string& from, const std::string& dir) {
    const int line = inc->GetLineNum();
    const char* f = inc->Attribute("file");
    if (!f || !*f) throw ErrorException(Error{from, line, "<include>", "a file attribute", "none"});
    const std::string path = join_path(dir, f);
    const std::string element = "<include> file '" + std::string(f) + "'";
    std::ifstream in(path, std::ios::binary);
    if (!in)
      throw ErrorException(
          Error{from, line, element, "a readable file", "'" + path + "' cannot be opened"});
    std::error_code ec;
    const std::string canon = std::filesystem::weakly_canonical(path, ec).string();
    if (std::find(stack.begin(), stack.end(), canon) != stack.end()) {
      std::string chain;
      for (const std::string& s : stack) chain += s + " -> ";
      throw ErrorException(
          Error{from, line, element, "no include cycle", "the cycle " + chain + canon});
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const int file = static_cast<int>(out.files.size());
    out.files.push_back(path);
    tinyxml2::XMLDocument doc;
    if (doc.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS)
      throw ErrorException(
          Error{path, doc.ErrorLineNum(), "XML",
                "well-formed XML (included from " + from + ":" + std::to_string(line) + ")",
                xml_error_text(doc)});
    const Element* root = doc.RootElement();
    if (!root || std::strcmp(root->Name(), "mujoco") != 0)
      throw ErrorException(Error{path, root ? root->GetLineNum() : 0, "root element of " + element,
                                 "<mujoco>",
                                 root ? "<" + std::string(root->Name()) + ">" : "nothing"});
    // The root's content: after the start tag of <mujoco>, before its end tag.
    const size_t start = find_tag(text, "mujoco", 0);
    size_t open_end = text.find('>', start);
    if (open_end == std::string::npos || text[open_end - 1] == '/') return;  // <mujoco/>: empty
    const size_t close = text.rfind("</mujoco>");
    stack.push_back(canon);
    expand(text, file, directory_of(path), open_end + 1, close);
    stack.pop_back();
  }
};

}  // namespace

ExpandedXml expand_includes(const std::string& xml, const std::string& file,
                            const std::string& dir) {
  ExpandedXml out;
  out.files.push_back(file);
  Expander x{out, {}};
  std::error_code ec;
  x.stack.push_back(file.empty() ? std::string()
                                 : std::filesystem::weakly_canonical(file, ec).string());
  x.expand(xml, 0, dir, 0, xml.size());
  return out;
}

std::pair<std::string, int> ExpandedXml::where(int line) const {
  if (line <= 0 || line > static_cast<int>(origin.size())) return {files.at(0), line};
  const auto& [f, l] = origin[line - 1];
  return {files[f], l};
}

}  // namespace moreau::mjcf
