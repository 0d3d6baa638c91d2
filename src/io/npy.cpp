// npy.cpp — the .npy format (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html) for
// float tensors. See npy.h for what is accepted and what is not.
//
// File layout: "\x93NUMPY", major, minor, header length (uint16 LE in 1.0; uint32 LE in 2.0 and 3.0), then an
// ASCII Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with spaces and
// ended by '\n' so the data starts at a multiple of 64 bytes, then the raw data in C order.
#include "io/npy.h"

#include "core/portable.h"

#include <climits>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <system_error>

namespace attnviz::io {
namespace {

constexpr std::string_view kMagic{"\x93NUMPY", 6};
constexpr std::size_t kAlignment = 64;
// numpy.save leaves room for the first axis to grow to 21 digits in place (numpy.lib.format.GROWTH_AXIS_MAX_DIGITS);
// we add the same spaces so our files are byte-identical to numpy's.
constexpr std::size_t kGrowthAxisMaxDigits = 21;
// The data is written straight from memory as '<f4' (every Debian target attnviz builds for is little-endian).
static_assert(std::endian::native == std::endian::little, "writing .npy data from memory needs a little-endian host");

// [SECTION] Writing

// Python's repr of a shape tuple: "()", "(5,)", "(2, 3)".
std::string shapeLiteral(const std::vector<int>& shape) {
    std::string text = "(";
    for (std::size_t axis = 0; axis < shape.size(); ++axis) {
        if (axis > 0) text += ", ";
        text += std::to_string(shape[axis]);
    }
    return text + (shape.size() == 1 ? ",)" : ")");
}

// The header text including padding and the final '\n', as numpy.lib.format._write_array_header makes it.
std::string headerText(const std::vector<int>& shape) {
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shapeLiteral(shape) + ", }";
    if (!shape.empty()) dict.append(kGrowthAxisMaxDigits - std::to_string(shape[0]).size(), ' ');
    const std::size_t prefixLength = kMagic.size() + 2 + 2;  // magic, version, uint16 header length
    const std::size_t padding = kAlignment - (prefixLength + dict.size() + 1) % kAlignment;
    return dict + std::string(padding, ' ') + '\n';
}

void appendLittleEndian(std::string& out, std::uint64_t value, int byteCount) {
    for (int i = 0; i < byteCount; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

void checkEncodable(const core::Tensor& tensor) {
    std::size_t count = 1;
    for (int extent : tensor.shape) {
        if (extent < 0) throw std::invalid_argument("encodeNpy: negative extent in shape " + shapeLiteral(tensor.shape));
        count *= static_cast<std::size_t>(extent);
    }
    if (count != tensor.data.size()) {
        throw std::invalid_argument("encodeNpy: shape " + shapeLiteral(tensor.shape) + " needs " + std::to_string(count) +
                                    " values but the tensor holds " + std::to_string(tensor.data.size()));
    }
}

// The .npy bytes before the data: magic, version 1.0, header length, header text.
std::string npyPrefix(const core::Tensor& tensor) {
    checkEncodable(tensor);
    const std::string header = headerText(tensor.shape);
    if (header.size() > 0xFFFF) throw std::invalid_argument("encodeNpy: shape " + shapeLiteral(tensor.shape) + " has too many axes for .npy 1.0");
    std::string prefix(kMagic);
    prefix += '\x01';
    prefix += '\x00';
    appendLittleEndian(prefix, header.size(), 2);
    return prefix + header;
}

// [SECTION] Reading: the header dict

// One value of the header dict: a string ('<f4'), a boolean (False) or a tuple of integers ((2, 3)).
struct HeaderValue {
    enum class Kind { String, Boolean, Tuple } kind = Kind::String;
    std::string text;
    bool flag = false;
    std::vector<long long> numbers;
};

// A strict parser for the small subset of Python literals numpy writes in a header.
class HeaderParser {
public:
    HeaderParser(std::string_view text, std::string_view fileName) : text_(text), fileName_(fileName) {}

    std::map<std::string, HeaderValue> parseDict() {
        std::map<std::string, HeaderValue> entries;
        expect('{', "the header must be a dict starting with '{'");
        while (!consume('}')) {
            std::string key = parseString("a quoted key");
            expect(':', "expected ':' after key '" + key + "'");
            HeaderValue value = parseValue(key);
            if (!entries.emplace(key, std::move(value)).second) fail("key '" + key + "' appears twice");
            if (!consume(',')) {
                expect('}', "expected ',' or '}' after the value of '" + key + "'");
                break;
            }
        }
        skipSpace();
        if (position_ != text_.size()) fail("unexpected text after the closing '}'");
        return entries;
    }

    [[noreturn]] void fail(const std::string& detail) const {
        throw FileError("'" + std::string(fileName_) + "' has a malformed .npy header: " + detail + ".");
    }

private:
    static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
    void skipSpace() {
        while (position_ < text_.size() && isSpace(text_[position_])) ++position_;
    }
    bool consume(char c) {
        skipSpace();
        if (position_ < text_.size() && text_[position_] == c) {
            ++position_;
            return true;
        }
        return false;
    }
    void expect(char c, const std::string& problem) {
        if (!consume(c)) fail(problem);
    }
    bool consumeWord(std::string_view word) {
        skipSpace();
        if (text_.substr(position_, word.size()) != word) return false;
        position_ += word.size();
        return true;
    }

    std::string parseString(const std::string& what) {
        skipSpace();
        if (position_ >= text_.size() || (text_[position_] != '\'' && text_[position_] != '"')) fail("expected " + what);
        const char quote = text_[position_++];
        const std::size_t end = text_.find(quote, position_);
        if (end == std::string_view::npos) fail("a string is not closed");
        std::string value(text_.substr(position_, end - position_));
        position_ = end + 1;
        return value;
    }

    long long parseNonNegativeInteger() {
        skipSpace();
        const std::size_t start = position_;
        long long value = 0;
        while (position_ < text_.size() && text_[position_] >= '0' && text_[position_] <= '9') {
            value = value * 10 + (text_[position_++] - '0');
            if (value > INT_MAX) fail("a dimension in 'shape' is larger than " + std::to_string(INT_MAX));
        }
        if (position_ == start) fail("'shape' must be a tuple of non-negative integers");
        return value;
    }

    std::vector<long long> parseTuple() {
        std::vector<long long> numbers;
        while (!consume(')')) {
            numbers.push_back(parseNonNegativeInteger());
            if (!consume(',')) {
                expect(')', "expected ',' or ')' in 'shape'");
                break;
            }
        }
        return numbers;
    }

    HeaderValue parseValue(const std::string& key) {
        HeaderValue value;
        skipSpace();
        if (consumeWord("True")) {
            value.kind = HeaderValue::Kind::Boolean;
            value.flag = true;
        } else if (consumeWord("False")) {
            value.kind = HeaderValue::Kind::Boolean;
        } else if (consume('(')) {
            value.kind = HeaderValue::Kind::Tuple;
            value.numbers = parseTuple();
        } else {
            value.text = parseString("a string, True, False or a tuple as the value of '" + key + "'");
        }
        return value;
    }

    std::string_view text_;
    std::string_view fileName_;
    std::size_t position_ = 0;
};

// [SECTION] Reading: the whole file

enum class ElementType { Float32, Float64 };

struct Header {
    ElementType type = ElementType::Float32;
    std::vector<int> shape;
    std::size_t dataOffset = 0;
};

std::uint64_t readLittleEndian(std::string_view bytes, std::size_t offset, int byteCount) {
    std::uint64_t value = 0;
    for (int i = 0; i < byteCount; ++i) value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
    return value;
}

std::string aboutFile(std::string_view name, const std::string& problem) { return "'" + std::string(name) + "' " + problem; }

// Magic, version and header length → where the header text lies.
std::string_view locateHeaderText(std::string_view bytes, std::string_view name, std::size_t& dataOffset) {
    if (bytes.substr(0, kMagic.size()) != kMagic) {
        throw FileError(aboutFile(name, "is not a .npy file: it does not start with the magic string \\x93NUMPY."));
    }
    if (bytes.size() < kMagic.size() + 2) throw FileError(aboutFile(name, "is truncated: it ends inside the .npy version bytes."));
    const int major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
    if (minor != 0 || major < 1 || major > 3) {
        throw FileError(aboutFile(name, "uses .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                                            "; versions 1.0, 2.0 and 3.0 are supported."));
    }
    const int lengthBytes = major == 1 ? 2 : 4;
    const std::size_t headerStart = kMagic.size() + 2 + static_cast<std::size_t>(lengthBytes);
    if (bytes.size() < headerStart) throw FileError(aboutFile(name, "is truncated: it ends before the header length."));
    const std::uint64_t headerLength = readLittleEndian(bytes, kMagic.size() + 2, lengthBytes);
    if (headerLength > bytes.size() - headerStart) {
        throw FileError(aboutFile(name, "is truncated: its header should be " + std::to_string(headerLength) + " bytes but only " +
                                            std::to_string(bytes.size() - headerStart) + " follow."));
    }
    dataOffset = headerStart + static_cast<std::size_t>(headerLength);
    return bytes.substr(headerStart, static_cast<std::size_t>(headerLength));
}

ElementType elementTypeOf(const std::string& descr, std::string_view name) {
    if (descr == "<f4") return ElementType::Float32;
    if (descr == "<f8") return ElementType::Float64;
    if (descr == ">f4" || descr == ">f8") {
        throw FileError(aboutFile(name, "holds big-endian data ('" + descr + "'); only little-endian '<f4' (or '<f8') is supported."));
    }
    throw FileError(aboutFile(name, "has dtype '" + descr + "'; '<f4' (float32) is expected ('<f8' is also accepted)."));
}

Header parseHeader(std::string_view bytes, std::string_view name) {
    Header header;
    const std::string_view text = locateHeaderText(bytes, name, header.dataOffset);
    HeaderParser parser(text, name);
    const std::map<std::string, HeaderValue> entries = parser.parseDict();
    for (const char* key : {"descr", "fortran_order", "shape"}) {
        if (entries.count(key) == 0) parser.fail(std::string("the key '") + key + "' is missing");
    }
    if (entries.size() != 3) parser.fail("it has keys other than 'descr', 'fortran_order' and 'shape'");
    const HeaderValue& descr = entries.at("descr");
    const HeaderValue& fortranOrder = entries.at("fortran_order");
    const HeaderValue& shape = entries.at("shape");
    if (descr.kind != HeaderValue::Kind::String) parser.fail("'descr' must be a string such as '<f4'");
    if (fortranOrder.kind != HeaderValue::Kind::Boolean) parser.fail("'fortran_order' must be True or False");
    if (shape.kind != HeaderValue::Kind::Tuple) parser.fail("'shape' must be a tuple such as (2, 3)");
    header.type = elementTypeOf(descr.text, name);
    if (fortranOrder.flag) {
        throw FileError(aboutFile(name, "is stored in Fortran (column-major) order; only C order (fortran_order False) is supported."));
    }
    for (long long extent : shape.numbers) header.shape.push_back(static_cast<int>(extent));
    return header;
}

// The element count of a shape, or nullopt when it exceeds `limit` (so a huge shape cannot overflow size_t).
std::optional<std::size_t> elementCount(const std::vector<int>& shape, std::size_t limit) {
    std::size_t count = 1;
    for (int extent : shape) {
        if (extent == 0) return 0;
    }
    for (int extent : shape) {
        if (count > limit / static_cast<std::size_t>(extent)) return std::nullopt;
        count *= static_cast<std::size_t>(extent);
    }
    return count;
}

void checkPayloadSize(const Header& header, std::size_t available, std::size_t itemSize, std::string_view name) {
    const std::optional<std::size_t> count = elementCount(header.shape, SIZE_MAX / itemSize);
    const std::string shapeText = shapeLiteral(header.shape);
    if (!count || *count * itemSize > available) {
        const std::string needed = count ? std::to_string(*count * itemSize) + " bytes" : "more bytes";
        throw FileError(aboutFile(name, "is truncated: its shape " + shapeText + " needs " + needed + " of data but the file has " +
                                            std::to_string(available) + "."));
    }
    if (*count * itemSize < available) {
        throw FileError(aboutFile(name, "has " + std::to_string(available) + " bytes of data but its shape " + shapeText + " needs " +
                                            std::to_string(*count * itemSize) + "."));
    }
}

template <typename Stored, typename Bits>
void decodeValues(std::string_view payload, std::span<float> out) {
    for (std::size_t i = 0; i < out.size(); ++i) {
        const Bits bits = static_cast<Bits>(readLittleEndian(payload, i * sizeof(Stored), sizeof(Stored)));
        out[i] = static_cast<float>(core::bitCast<Stored>(bits));
    }
}

}  // namespace

std::string encodeNpy(const core::Tensor& tensor) {
    std::string out = npyPrefix(tensor);
    out.append(reinterpret_cast<const char*>(tensor.data.data()), tensor.size() * sizeof(float));
    return out;
}

// Streams the data from the tensor instead of copying it into one string first: score maps can be gigabytes.
void writeNpy(const std::filesystem::path& path, const core::Tensor& tensor) {
    const std::string prefix = npyPrefix(tensor);
    writeFileAtomically(path, [&](std::FILE* file) {
        if (std::fwrite(prefix.data(), 1, prefix.size(), file) != prefix.size() ||
            std::fwrite(tensor.data.data(), sizeof(float), tensor.size(), file) != tensor.size()) {
            const int error = errno != 0 ? errno : EIO;
            throw FileError("Cannot write '" + path.string() + "': " + std::system_category().message(error) + ".");
        }
    });
}

core::Tensor decodeNpy(std::string_view bytes, std::string_view nameForErrors) {
    const Header header = parseHeader(bytes, nameForErrors);
    const std::size_t itemSize = header.type == ElementType::Float32 ? 4 : 8;
    const std::string_view payload = bytes.substr(header.dataOffset);
    checkPayloadSize(header, payload.size(), itemSize, nameForErrors);
    core::Tensor tensor(header.shape);
    if (header.type == ElementType::Float32) {
        decodeValues<float, std::uint32_t>(payload, tensor.data);
    } else {
        decodeValues<double, std::uint64_t>(payload, tensor.data);
    }
    return tensor;
}

core::Tensor readNpy(const std::filesystem::path& path) { return decodeNpy(readWholeFile(path), path.string()); }

}  // namespace attnviz::io
