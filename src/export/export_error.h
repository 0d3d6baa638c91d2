// export_error.h — the one error type for export requests that cannot be fulfilled as asked.
//
// An unknown stage or matrix name, a head out of range, a figure too large for the options, an existing file
// without --force: the message is one sentence saying what is wrong and what is allowed, shown to the user as
// is (the CLI prefixes "attnviz export: "). File system failures stay io::FileError, fonts FontError.
#pragma once

#include <stdexcept>

namespace attnviz::exporting {

class ExportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace attnviz::exporting
