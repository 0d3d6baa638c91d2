// cli_options.cpp — the input options every subcommand shares, and their translation into a ModelSpec.
#include "app/cli_options.h"

#include "io/session.h"

#include <cmath>
#include <string_view>

namespace attnviz::app {
namespace {

core::MaskKind parseMask(std::string_view text) {
    if (text == "none") return core::MaskKind::None;
    if (text == "padding") return core::MaskKind::Padding;
    if (text == "causal") return core::MaskKind::Causal;
    if (text == "both") return core::MaskKind::Both;
    throw core::InputError("--mask must be none, padding, causal or both (got \"" + std::string(text) + "\").");
}

core::MaskFill parseFill(std::string_view text) {
    if (text == "-1e9") return core::MaskFill::MinusBillion;
    if (text == "-inf") return core::MaskFill::MinusInfinity;
    throw core::InputError("--fill must be -1e9 or -inf (got \"" + std::string(text) + "\").");
}

core::SoftmaxMode parseSoftmax(std::string_view text) {
    if (text == "safe") return core::SoftmaxMode::Safe;
    if (text == "pytorch") return core::SoftmaxMode::PyTorch;
    throw core::InputError("--softmax must be safe or pytorch (got \"" + std::string(text) + "\").");
}

}  // namespace

void addInputOptions(CLI::App& command, InputOptions& o) {
    command.add_option("-s,--sentence", o.sentence, "The sentence to attend over")->capture_default_str();
    command.add_option("--batch", o.batch, "Several sentences padded into one batch (replaces --sentence)");
    command.add_option("--cross", o.cross, "Decoder sentence(s) for cross-attention: queries from these, keys/values from --sentence/--batch");
    command.add_option("--d-model", o.dModel, "Model width d_model")->capture_default_str();
    command.add_option("--heads", o.heads, "Number of heads h (must divide d_model unless --d-k/--d-v are given)")->capture_default_str();
    command.add_option("--d-k", o.dK, "Width of each head's queries and keys (default d_model / h)");
    command.add_option("--d-v", o.dV, "Width of each head's values (default d_model / h)");
    command.add_option("--seed", o.seed, "Seed for embeddings and weights")->capture_default_str();
    command.add_option("--mask", o.mask, "none | padding | causal | both")->capture_default_str();
    command.add_option("--fill", o.fill, "Masked score value: -1e9 | -inf")->capture_default_str();
    command.add_option("--softmax", o.softmax, "Fully masked rows: safe (zeros, flagged) | pytorch (as PyTorch computes)")->capture_default_str();
    command.add_option("--score-scale", o.scale, "Multiply scores by this instead of 1/sqrt(d_k)");
    command.add_flag("--cls", o.cls, "Prepend a [CLS] token");
    command.add_flag("--no-positional", o.noPositional, "Leave out the positional encoding");
    command.add_flag("--biases", o.biases, "Linear layers with biases");
    command.add_option("--token-limit", o.tokenLimit, "Most tokens per sentence (1-2048)")->capture_default_str();
    // A session holds every input; mixing it with single input options would leave it unclear which wins.
    CLI::Option* session = command.add_option("--session", o.session, "Take every input from a saved session file (.json)");
    for (CLI::Option* option : command.get_options()) {
        if (option != session && option->get_group() == session->get_group() && !option->check_name("--help")) {
            session->excludes(option);
        }
    }
}

core::ModelSpec toModelSpec(const InputOptions& o) {
    if (o.session) return io::openSession(*o.session).spec;
    core::ModelSpec spec;
    spec.sentences = o.batch.empty() ? std::vector<std::string>{o.sentence} : o.batch;
    spec.decoderSentences = o.cross;
    spec.attention.dModel = o.dModel;
    spec.attention.heads = o.heads;
    spec.attention.dK = o.dK;
    spec.attention.dV = o.dV;
    spec.attention.mask = parseMask(o.mask);
    spec.attention.fill = parseFill(o.fill);
    spec.attention.softmax = parseSoftmax(o.softmax);
    if (o.scale && !std::isfinite(*o.scale)) throw core::InputError("--score-scale must be a finite number.");
    spec.attention.scale = o.scale;
    spec.seed = o.seed;
    spec.positional = !o.noPositional;
    spec.prependCls = o.cls;
    spec.biases = o.biases;
    spec.tokenLimit = o.tokenLimit;
    core::resolveDimensions(spec.attention);  // report bad sizes now, with the valid values
    return spec;
}

}  // namespace attnviz::app
