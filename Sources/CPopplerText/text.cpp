// poppler-cpp's word list: every word of a page with each glyph's box, whatever way the
// words run. poppler-glib reads text only as a selection between two corners, which loses
// lines on rotated and right-to-left pages (an upside-down page gave none).
#include "CPopplerText.h"

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-page.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace {
void silent(const std::string &, void *) {}

/// UTF-16 code units to code points (a lone surrogate becomes U+FFFD).
std::vector<uint32_t> scalars(const poppler::ustring &text) {
    std::vector<uint32_t> result;
    for (size_t i = 0; i < text.size(); i++) {
        uint32_t unit = text[i];
        if (unit >= 0xD800 && unit <= 0xDBFF && i + 1 < text.size() && text[i + 1] >= 0xDC00 && text[i + 1] <= 0xDFFF) {
            result.push_back(0x10000 + ((unit - 0xD800) << 10) + (text[i + 1] - 0xDC00));
            i++;
        } else if (unit >= 0xD800 && unit <= 0xDFFF) {
            result.push_back(0xFFFD);
        } else {
            result.push_back(unit);
        }
    }
    return result;
}

template <typename T> T *copied(const std::vector<T> &items) {
    if (items.empty()) return nullptr;
    T *memory = static_cast<T *>(std::malloc(sizeof(T) * items.size()));
    if (memory) std::memcpy(memory, items.data(), sizeof(T) * items.size());
    return memory;
}
}

extern "C" void *text_document_open(const char *path, const char *password) {
    try {
        poppler::set_debug_error_function(silent, nullptr);
        std::string given = password ? password : "";
        return poppler::document::load_from_file(path, given, given);
    } catch (...) {
        return nullptr;
    }
}

extern "C" void text_document_close(void *document) { delete static_cast<poppler::document *>(document); }

extern "C" int text_page_read(void *opened, int index, text_page *out) {
    std::memset(out, 0, sizeof(*out));
    auto document = static_cast<poppler::document *>(opened);
    try {
        if (!document || index < 0 || index >= document->pages()) return -1;
        std::unique_ptr<poppler::page> page(document->create_page(index));
        if (!page) return -1;
        switch (page->orientation()) {
        case poppler::page::landscape: out->rotation = 90; break;
        case poppler::page::upside_down: out->rotation = 180; break;
        case poppler::page::seascape: out->rotation = 270; break;
        default: out->rotation = 0; break;
        }
        std::vector<text_word> words;
        std::vector<text_glyph> glyphs;
        std::vector<std::string> fonts;
        std::map<std::string, int32_t> fontIndex;
        for (const auto &box : page->text_list(poppler::page::text_list_include_font)) {
            auto letters = scalars(box.text());
            auto bounds = box.bbox();
            text_word word = {glyphs.size(), 0, box.rotation(), box.has_space_after() ? 1 : 0,
                              bounds.left(), bounds.top(), bounds.right(), bounds.bottom()};
            for (size_t i = 0; i < letters.size(); i++) {
                auto name = box.get_font_name(static_cast<int>(i));
                auto found = fontIndex.find(name);
                int32_t font;
                if (found == fontIndex.end()) {
                    font = static_cast<int32_t>(fonts.size());
                    fontIndex[name] = font;
                    fonts.push_back(name);
                } else {
                    font = found->second;
                }
                auto glyph = box.char_bbox(i);
                glyphs.push_back({letters[i], glyph.left(), glyph.top(), glyph.right(), glyph.bottom(), box.get_font_size(), font});
            }
            word.count = glyphs.size() - word.first;
            words.push_back(word);
        }
        out->words = copied(words);
        out->word_count = out->words ? words.size() : 0;
        out->glyphs = copied(glyphs);
        out->glyph_count = out->glyphs ? glyphs.size() : 0;
        if (!fonts.empty()) {
            out->fonts = static_cast<char **>(std::calloc(fonts.size(), sizeof(char *)));
            if (out->fonts) {
                out->font_count = fonts.size();
                for (size_t i = 0; i < fonts.size(); i++) out->fonts[i] = strdup(fonts[i].c_str());
            }
        }
        if (out->word_count != words.size() || out->glyph_count != glyphs.size()) {
            text_page_free(out);
            return -1;
        }
        return 0;
    } catch (...) {
        text_page_free(out);
        return -1;
    }
}

extern "C" void text_page_free(text_page *page) {
    std::free(page->words);
    std::free(page->glyphs);
    for (size_t i = 0; i < page->font_count; i++) std::free(page->fonts[i]);
    std::free(page->fonts);
    std::memset(page, 0, sizeof(*page));
}
