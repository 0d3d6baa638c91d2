// test_npy.cpp — io::encodeNpy/decodeNpy/readNpy/writeNpy against files numpy.save wrote (tests/io/data, see
// make_npy_samples.py there), every refusal of the reader, and a fuzz run that must end in a Tensor or a FileError.
// Not tested here: dumps (test_dump.cpp) and atomic replacement (test_atomic_file.cpp).
#include "io/npy.h"

#include "io/scratch_dir.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using attnviz::core::Tensor;
using attnviz::io::FileError;

const fs::path kSamples = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/io/data";

std::string fileBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "cannot open ", path.string());
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

Tensor tensorOf(std::vector<int> shape, std::vector<float> values) {
    Tensor tensor(std::move(shape));
    REQUIRE(values.size() == tensor.size());
    std::copy(values.begin(), values.end(), tensor.data.begin());
    return tensor;
}

// The same values as make_npy_samples.py's ASYMMETRIC_2X3, row-major.
Tensor asymmetric2x3() { return tensorOf({2, 3}, {0.5f, -1.0f, 2.0f, 3.25f, 4.0f, -5.75f}); }

Tensor rank3Sample() {
    std::vector<float> values;
    for (int i = 0; i < 24; ++i) values.push_back(static_cast<float>(i) * 0.25f - 1.0f);
    return tensorOf({2, 3, 4}, values);
}

// Where two byte strings first differ, for a readable failure ("npos" when equal).
std::string firstDifference(const std::string& ours, const std::string& numpys) {
    const std::size_t common = std::min(ours.size(), numpys.size());
    for (std::size_t i = 0; i < common; ++i) {
        if (ours[i] != numpys[i]) return "byte " + std::to_string(i) + ": ours '" + ours[i] + "', numpy's '" + numpys[i] + "'";
    }
    return ours.size() == numpys.size() ? "npos" : "sizes " + std::to_string(ours.size()) + " vs " + std::to_string(numpys.size());
}

// The message of the FileError `decode` throws; fails the test when it throws nothing.
std::string refusal(const std::function<void()>& decode) {
    try {
        decode();
    } catch (const FileError& error) {
        return error.what();
    }
    FAIL("expected a FileError, got none");
    return {};
}

std::string refusalOf(const std::string& bytes, const std::string& name = "sample.npy") {
    return refusal([&] { attnviz::io::decodeNpy(bytes, name); });
}

// A version 1.0 file with this header dict (padded like numpy's) and these payload bytes.
std::string npyWithHeader(const std::string& dict, const std::string& payload) {
    std::string header = dict;
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string bytes("\x93NUMPY\x01\x00", 8);
    bytes += static_cast<char>(header.size() & 0xFF);
    bytes += static_cast<char>(header.size() >> 8);
    return bytes + header + payload;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("npy: encodeNpy writes exactly the bytes numpy.save writes (header, padding and data)") {
    const std::vector<std::pair<std::string, Tensor>> samples{
        {"f4_asymmetric_2x3.npy", asymmetric2x3()},
        {"f4_rank3_2x3x4.npy", rank3Sample()},
        {"f4_vector_5.npy", tensorOf({5}, {1.0f, -2.0f, 0.0f, 1e-3f, 65504.0f})},
        {"f4_scalar.npy", tensorOf({}, {3.5f})},
        {"f4_empty_12345x0.npy", Tensor({12345, 0})},
    };
    for (const auto& [name, tensor] : samples) {
        CAPTURE(name);
        const std::string ours = attnviz::io::encodeNpy(tensor);
        const std::string numpys = fileBytes(kSamples / name);
        CHECK_MESSAGE(ours == numpys, "first difference at ", firstDifference(ours, numpys));
        CHECK(ours.size() % 64 == numpys.size() % 64);
    }
}

TEST_CASE("npy: readNpy reads numpy's non-square asymmetric matrix in row-major order") {
    const Tensor tensor = attnviz::io::readNpy(kSamples / "f4_asymmetric_2x3.npy");
    CHECK(tensor.shape == std::vector<int>{2, 3});
    REQUIRE(tensor.size() == 6);
    CHECK(tensor.slice(0)(0, 1) == -1.0f);   // row 0, column 1
    CHECK(tensor.slice(0)(1, 0) == 3.25f);   // row 1, column 0: a transposed read would find 2.0 here
    CHECK(tensor.slice(0)(1, 2) == -5.75f);
}

TEST_CASE("npy: readNpy accepts '<f8' (as float32) and format version 2.0") {
    const Tensor expected = asymmetric2x3();
    for (const char* name : {"f8_asymmetric_2x3.npy", "f4_version2_2x3.npy"}) {
        CAPTURE(name);
        const Tensor tensor = attnviz::io::readNpy(kSamples / name);
        CHECK(tensor.shape == expected.shape);
        CHECK(std::equal(tensor.data.begin(), tensor.data.end(), expected.data.begin(), expected.data.end()));
    }
}

TEST_CASE("npy: every numpy sample round-trips through decode and encode unchanged") {
    for (const char* name : {"f4_asymmetric_2x3.npy", "f4_rank3_2x3x4.npy", "f4_vector_5.npy", "f4_scalar.npy", "f4_empty_12345x0.npy"}) {
        CAPTURE(name);
        const std::string bytes = fileBytes(kSamples / name);
        CHECK(attnviz::io::encodeNpy(attnviz::io::decodeNpy(bytes, name)) == bytes);
    }
}

TEST_CASE("npy: writeNpy then readNpy keeps every bit, including NaN, infinities and -0") {
    attnviz::test::ScratchDir dir("npy");
    const float inf = std::numeric_limits<float>::infinity();
    const Tensor written = tensorOf({1, 2, 3}, {std::nanf(""), -inf, inf, -0.0f, 1e-38f, -3.0e38f});
    attnviz::io::writeNpy(dir / "t.npy", written);
    CHECK(fileBytes(dir / "t.npy") == attnviz::io::encodeNpy(written));
    const Tensor read = attnviz::io::readNpy(dir / "t.npy");
    CHECK(read.shape == written.shape);
    REQUIRE(read.size() == written.size());
    CHECK(std::memcmp(read.data.data(), written.data.data(), written.size() * sizeof(float)) == 0);
}

TEST_CASE("npy: encodeNpy refuses a tensor whose data does not match its shape") {
    Tensor broken({2, 3});
    broken.data.resize(5);
    CHECK_THROWS_AS(attnviz::io::encodeNpy(broken), std::invalid_argument);
}

TEST_CASE("npy: the reader refuses a file that is not .npy, naming the file") {
    const std::string message = refusalOf("PK\x03\x04 this is a zip", "weights.npz");
    CHECK(contains(message, "'weights.npz'"));
    CHECK(contains(message, "magic"));
    CHECK(contains(refusalOf(""), "magic"));
    CHECK(contains(refusalOf(std::string("\x93NUMPY", 6)), "truncated"));
    CHECK(contains(refusalOf(std::string("\x93NUMPY\x01\x00\x10", 9)), "truncated"));
}

TEST_CASE("npy: the reader refuses unsupported format versions") {
    std::string bytes = fileBytes(kSamples / "f4_asymmetric_2x3.npy");
    bytes[6] = '\x04';
    CHECK(contains(refusalOf(bytes), "version 4.0"));
    bytes[6] = '\x01';
    bytes[7] = '\x01';
    CHECK(contains(refusalOf(bytes), "version 1.1"));
}

TEST_CASE("npy: the reader names a wrong dtype and says '<f4' is expected") {
    const fs::path path = kSamples / "i4_2x3.npy";
    const std::string message = refusal([&] { attnviz::io::readNpy(path); });
    CHECK(contains(message, path.string()));
    CHECK(contains(message, "'<i4'"));
    CHECK(contains(message, "'<f4'"));
    CHECK(contains(refusalOf(npyWithHeader("{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }", "ab")), "'|u1'"));
}

TEST_CASE("npy: the reader refuses big-endian data and Fortran order") {
    CHECK(contains(refusal([&] { attnviz::io::readNpy(kSamples / "f4_big_endian_2x3.npy"); }), "big-endian"));
    CHECK(contains(refusal([&] { attnviz::io::readNpy(kSamples / "f4_fortran_2x3.npy"); }), "Fortran"));
}

TEST_CASE("npy: the reader refuses a payload that does not match the shape") {
    const std::string bytes = fileBytes(kSamples / "f4_asymmetric_2x3.npy");
    const std::string shortened = refusalOf(bytes.substr(0, bytes.size() - 1), "short.npy");
    CHECK(contains(shortened, "'short.npy' is truncated"));
    CHECK(contains(shortened, "needs 24 bytes"));
    CHECK(contains(refusalOf(bytes + "tail"), "has 28 bytes of data but its shape (2, 3) needs 24"));
    // A shape whose element count overflows 64 bits must be reported, not allocated.
    const std::string huge = npyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2147483647, 2147483647, 2147483647), }", "");
    CHECK(contains(refusalOf(huge), "truncated"));
    // A header length that runs past the end of the file.
    std::string lying = bytes.substr(0, 20);
    CHECK(contains(refusalOf(lying), "truncated"));
}

TEST_CASE("npy: the reader refuses malformed header dicts with a reason") {
    const std::string payload(24, '\0');
    const std::vector<std::pair<std::string, std::string>> cases{
        {"['<f4', False, (2, 3)]", "dict"},
        {"{'descr': '<f4', 'fortran_order': False}", "'shape' is missing"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'extra': 1}", "value of 'extra'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'extra': True}", "other than"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}", "twice"},
        {"{'descr': '<f4, 'fortran_order': False, 'shape': (2, 3)}", "expected ',' or '}'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3)}", "non-negative"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 3)}", "larger than"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': 6}", "value of 'shape'"},
        {"{'descr': '<f4', 'fortran_order': 'no', 'shape': (2, 3)}", "True or False"},
        {"{'descr': (4,), 'fortran_order': False, 'shape': (2, 3)}", "'descr' must be a string"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} junk", "after the closing"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3", "expected ',' or ')'"},
        {"{'descr': '<f4'", "expected ',' or '}'"},
    };
    for (const auto& [dict, reason] : cases) {
        CAPTURE(dict);
        const std::string message = refusalOf(npyWithHeader(dict, payload), "bad.npy");
        CHECK(contains(message, "'bad.npy' has a malformed .npy header"));
        CHECK_MESSAGE(contains(message, reason), message);
    }
}

TEST_CASE("npy: readNpy names a missing file and the OS reason") {
    const std::string message = refusal([] { attnviz::io::readNpy("/nonexistent/attnviz/x.npy"); });
    CHECK(contains(message, "'/nonexistent/attnviz/x.npy'"));
    CHECK(contains(message, "No such file or directory"));
}

TEST_CASE("npy: fuzz: any bytes give a consistent Tensor or a FileError, never a crash") {
    const std::string valid = fileBytes(kSamples / "f4_rank3_2x3x4.npy");
    std::mt19937 random(20240611);
    // True when the bytes decoded; then the tensor's data must match its shape.
    const auto decodesConsistently = [](const std::string& bytes) {
        try {
            const Tensor tensor = attnviz::io::decodeNpy(bytes, "fuzz.npy");
            std::size_t count = 1;
            for (int extent : tensor.shape) count *= static_cast<std::size_t>(extent);
            REQUIRE(count == tensor.size());
            return true;
        } catch (const FileError&) {
            return false;
        }
    };
    for (std::size_t length = 0; length < valid.size(); ++length) CHECK_FALSE(decodesConsistently(valid.substr(0, length)));
    int decoded = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string bytes = valid;
        const int flips = 1 + static_cast<int>(random() % 4);
        for (int f = 0; f < flips; ++f) {
            // Mostly the header (where parsing happens), sometimes anywhere; often a character the parser cares about.
            const bool anywhere = random() % 4 == 0;
            const std::size_t at = random() % (anywhere ? bytes.size() : 128);
            const bool syntax = random() % 4 == 0;
            bytes[at] = static_cast<char>(syntax ? "(),':{} 0123456789TF"[random() % 20] : random() % 256);
        }
        if (decodesConsistently(bytes)) ++decoded;
    }
    std::string noise(300, '\0');
    for (char& c : noise) c = static_cast<char>(random() % 256);
    CHECK_FALSE(decodesConsistently(noise));
    CHECK(decoded > 0);  // some mutations only touch padding or data, and those files must still load
}
