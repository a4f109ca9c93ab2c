#include "engine/robots/urdf_xml_outline.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace swarm {
namespace {

// Appends code point `c` as UTF-8.
void AppendUtf8(std::string& out, uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// "&#9;" or "&#x1F600;" at the start of `text`: the code point and the reference's length.
bool CharacterReference(std::string_view text, uint32_t* code, size_t* length) {
  if (!text.starts_with("&#")) return false;
  const bool hex = text.size() > 2 && (text[2] == 'x' || text[2] == 'X');
  size_t i = hex ? 3 : 2;
  uint32_t value = 0;
  const size_t digits_start = i;
  for (; i < text.size() && i < digits_start + 8; ++i) {
    const char c = text[i];
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (hex && c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (hex && c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit < 0) break;
    value = value * (hex ? 16 : 10) + static_cast<uint32_t>(digit);
  }
  if (i == digits_start || i >= text.size() || text[i] != ';' || value > 0x10FFFF) return false;
  *code = value;
  *length = i + 1;
  return true;
}

// Attribute values as the XML parser delivers them: the five named entities and character
// references decoded (names are matched against urdfdom's, which decodes both).
std::string DecodeEntities(std::string_view text) {
  static const std::pair<std::string_view, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
  std::string out;
  for (size_t i = 0; i < text.size();) {
    bool decoded = false;
    uint32_t code = 0;
    size_t length = 0;
    if (CharacterReference(text.substr(i), &code, &length)) {
      AppendUtf8(out, code);
      i += length;
      continue;
    }
    for (const auto& [entity, character] : kEntities) {
      if (text.substr(i, entity.size()) == entity) {
        out += character;
        i += entity.size();
        decoded = true;
        break;
      }
    }
    if (!decoded) out += text[i++];
  }
  return out;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool IsNameCharacter(char c) {
  return c != '>' && c != '/' && c != '=' && c != '"' && c != '\'' && !IsSpace(c);
}

}  // namespace

XmlOutline ScanXml(std::string_view text) {
  XmlOutline outline;
  std::vector<XmlElementMark> stack;
  int line = 1;
  size_t i = 0;
  // Moves i to `end`, counting the newlines passed.
  auto advance_to = [&](size_t end) {
    end = std::min(end, text.size());
    for (; i < end; ++i) line += text[i] == '\n';
  };
  // Skips a construct opened at i and closed by `close`; false if the text ends inside it.
  auto skip_until = [&](std::string_view close, const char* what) {
    const size_t end = text.find(close, i);
    if (end == std::string_view::npos) {
      outline.unterminated = std::string(what) + " opened at line " + std::to_string(line);
      advance_to(text.size());
      return false;
    }
    advance_to(end + close.size());
    return true;
  };
  while (i < text.size()) {
    if (text[i] != '<') {
      const size_t next = text.find('<', i);
      advance_to(next == std::string_view::npos ? text.size() : next);
      continue;
    }
    const std::string_view rest = text.substr(i);
    if (rest.starts_with("<!--")) {
      if (!skip_until("-->", "a comment")) break;
    } else if (rest.starts_with("<![CDATA[")) {
      if (!skip_until("]]>", "a CDATA section")) break;
    } else if (rest.starts_with("<?")) {
      if (!skip_until("?>", "a processing instruction")) break;
    } else if (rest.starts_with("<!")) {
      if (!skip_until(">", "a declaration")) break;
    } else if (rest.starts_with("</")) {
      size_t end = 2;
      while (end < rest.size() && IsNameCharacter(rest[end])) ++end;
      const std::string tag(rest.substr(2, end - 2));
      if (!skip_until(">", "an end tag")) break;
      if (!stack.empty() && stack.back().tag == tag) stack.pop_back();
    } else {
      outline.has_element = true;
      XmlElementMark mark;
      mark.line = line;
      size_t end = 1;
      while (end < rest.size() && IsNameCharacter(rest[end])) ++end;
      mark.tag = std::string(rest.substr(1, end - 1));
      // Attributes up to '>' or "/>", skipping quoted values (which may contain '>').
      bool closed = false, self_closing = false;
      while (end < rest.size()) {
        const char c = rest[end];
        if (c == '"' || c == '\'') {
          const size_t close = rest.find(c, end + 1);
          if (close == std::string_view::npos) break;
          // attribute="value": the attribute's name precedes the '=' before this quote.
          size_t name_end = end;
          while (name_end > 0 && (rest[name_end - 1] == '=' || IsSpace(rest[name_end - 1]))) {
            --name_end;
          }
          size_t name_begin = name_end;
          while (name_begin > 0 && IsNameCharacter(rest[name_begin - 1])) --name_begin;
          const std::string_view attribute = rest.substr(name_begin, name_end - name_begin);
          const std::string_view value = rest.substr(end + 1, close - end - 1);
          if (attribute == "name") mark.name = DecodeEntities(value);
          if (attribute == "link") mark.link = DecodeEntities(value);
          end = close + 1;
        } else if (c == '>') {
          closed = true;
          self_closing = rest[end - 1] == '/';
          ++end;
          break;
        } else {
          ++end;
        }
      }
      if (!closed) {
        outline.unterminated = "the tag <" + mark.tag +
                               (mark.name.empty() ? "" : " name=\"" + mark.name + "\"") +
                               "> opened at line " + std::to_string(mark.line);
        advance_to(text.size());
        break;
      }
      advance_to(i + end);
      if (stack.size() == 1) outline.robot_children.push_back(mark);
      if (stack.size() == 2 && stack[1].tag == "joint") {
        if (mark.tag == "parent") outline.robot_children.back().parent_link = mark.link;
        if (mark.tag == "child") outline.robot_children.back().child_link = mark.link;
      }
      if (!self_closing) stack.push_back(std::move(mark));
    }
  }
  outline.open_at_end = std::move(stack);
  outline.last_line = line;
  return outline;
}

std::string DescribeXmlEnd(const XmlOutline& outline) {
  std::string where;
  if (!outline.unterminated.empty()) where = "inside " + outline.unterminated;
  for (auto it = outline.open_at_end.rbegin(); it != outline.open_at_end.rend(); ++it) {
    where += where.empty() ? "inside " : ", inside ";
    where += "<" + it->tag + (it->name.empty() ? "" : " name=\"" + it->name + "\"") +
             "> opened at line " + std::to_string(it->line);
  }
  if (where.empty()) return "";
  return "the text ends at line " + std::to_string(outline.last_line) + " " + where;
}

}  // namespace swarm
