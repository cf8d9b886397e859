// What end-to-end encryption (DAVE) costs, measured in the same run as its baselines:
//   send:       SendPipeline::ProcessFrame with the DAVE frame encryptor against the bare libraries doing the
//               same work (opus_encode, DAVE's AES-128-GCM frame encryption and the AES-256-GCM transport
//               seal through OpenSSL: bare_voice.hpp), the headline; and against the same pipeline without
//               DAVE (gate + Opus encode + RTP + transport seal), DAVE's own share: target <= 1.05x.
//   receive:    ReceivePipeline::OnDatagram + PlayoutTick with the DAVE frame decryptor against the bare
//               transport open, frame decryption and opus_decode; and against the pipeline without DAVE,
//               <= 1.05x.
//   transition: a 25th member joins a 24-member group the way DAVE v1 does it: the gateway's external Add
//               reaches all 24, each of them commits (all members are committing members), the first commit
//               is applied by the 24 and the Welcome by the newcomer, and all 25 derive their send and
//               receive keys. CPU time summed across members (one thread), target < 200 ms; the bare baseline
//               is the least public-key work those members must do, done with OpenSSL directly (one P-256
//               ECDH and one ECDSA signature and verification per commit and per processed message).
// Median of rounds, the variants interleaved within each round; prints the ratios last. Fails only when the
// work fails, never on timing.
#include "media_wire/rtp_packet.hpp"
#include "mls/group.hpp"
#include "voice/dave/frame_transforms.hpp"
#include "voice/dave/keys.hpp"
#include "voice/opus_codec.hpp"
#include "voice/receive_pipeline.hpp"
#include "voice/send_pipeline.hpp"

#include <openssl/ec.h>
#include <openssl/evp.h>
#include <opus.h>

#include "bare_voice.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <numbers>
#include <optional>
#include <vector>

#include "bench_mode.hpp"

using namespace platformpp::voice;
namespace media_wire = platformpp::media_wire;
using namespace platformpp::voice::dave;
namespace mls = platformpp::mls;

namespace {

constexpr int kFrames = 500;  // 10 s of audio per round
const int kRounds = platformpp::bench::Sized(7, 1);
constexpr int kMembers = 25;
constexpr uint64_t kSender = 1001, kReceiver = 1002;

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double CpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1000.0 + static_cast<double>(ts.tv_nsec) / 1e6;
}

std::vector<std::array<int16_t, kOpusFrameSamples>> Input() {
  std::vector<std::array<int16_t, kOpusFrameSamples>> frames(kFrames);
  for (int f = 0; f < kFrames; ++f) {
    for (int i = 0; i < kOpusFrameSamplesPerChannel; ++i) {
      const double t = static_cast<double>(f * kOpusFrameSamplesPerChannel + i) / kOpusSampleRate;
      const double envelope = 0.55 + 0.45 * std::sin(2 * std::numbers::pi * 3 * t);
      const auto sample = static_cast<int16_t>(envelope * (6000 * std::sin(2 * std::numbers::pi * 220 * t) +
                                                           3000 * std::sin(2 * std::numbers::pi * 440 * t)));
      frames[f][2 * static_cast<std::size_t>(i)] = sample;
      frames[f][2 * static_cast<std::size_t>(i) + 1] = sample;
    }
  }
  return frames;
}

mls::KeyPackageBundle Package(uint64_t user) {
  mls::KeyPackageOptions options;
  options.identity = IdentityOf(user);
  return mls::MakeKeyPackage(mls::SignaturePrivateKey::Generate(), options);
}

const mls::Bytes kGroupId{0, 0, 0, 0, 0, 0, 0, 7};

struct Member {
  uint64_t user = 0;
  mls::KeyPackageBundle bundle;
  std::optional<mls::Group> group;
};

/// Members 1..n in one group (the first created it and added the others), all at the same epoch.
std::vector<Member> MakeGroup(int n, const mls::ExternalSender& gateway) {
  std::vector<Member> members;
  members.reserve(n);
  for (int i = 0; i < n; ++i)
    members.push_back({kSender + static_cast<uint64_t>(i), Package(kSender + static_cast<uint64_t>(i)), {}});
  members[0].group =
      mls::Group::Create(kGroupId, members[0].bundle, {mls::MakeExternalSendersExtension({gateway})});
  std::vector<mls::Proposal> adds;
  for (int i = 1; i < n; ++i)
    adds.push_back(mls::Proposal{mls::AddProposal{members[static_cast<std::size_t>(i)].bundle.keyPackage}});
  auto commit = members[0].group->Commit(std::move(adds));
  members[0].group->HandleCommit(commit.commit);
  const auto& welcome = std::get<mls::Welcome>(commit.welcome->body);
  for (int i = 1; i < n; ++i)
    members[static_cast<std::size_t>(i)].group =
        mls::Group::Join(welcome, members[static_cast<std::size_t>(i)].bundle);
  return members;
}

/// The transition's CPU time (ms), or a negative value when something failed.
double Transition(const mls::SignaturePrivateKey& gatewayKey, const mls::ExternalSender& gateway) {
  auto members = MakeGroup(kMembers - 1, gateway);
  Member newcomer{kSender + kMembers - 1, Package(kSender + kMembers - 1), {}};
  const double start = CpuMs();
  mls::GroupContext context;
  context.groupId = kGroupId;
  context.epoch = members[0].group->Epoch();
  const auto add = mls::ExternalProposal(context, 0, gatewayKey,
                                         mls::Proposal{mls::AddProposal{newcomer.bundle.keyPackage}});
  std::vector<mls::Group::CommitOutput> commits;
  for (auto& m : members) {
    m.group->HandleProposal(add);
    commits.push_back(m.group->Commit());
  }
  const auto& winner = commits[0];
  for (auto& m : members)
    if (m.group->HandleCommit(winner.commit) != mls::Group::CommitResult::Applied) return -1;
  newcomer.group = mls::Group::Join(std::get<mls::Welcome>(winner.welcome->body), newcomer.bundle);
  members.push_back(std::move(newcomer));
  std::size_t senders = 0;
  for (auto& m : members) {
    auto receive = MakeReceiveEpoch(*m.group, m.user);
    auto send = MakeSenderKeys(*m.group, m.user);
    senders += receive->senders.size() + (send ? 1 : 0);
  }
  const double elapsed = CpuMs() - start;
  if (senders != static_cast<std::size_t>(kMembers) * kMembers) return -1;
  for (const auto& m : members)
    if (m.group->EpochAuthenticator() != members[0].group->EpochAuthenticator()) return -1;
  return elapsed;
}

/// The bare minimum of public-key work in that transition: per member commit one ECDH and one signature,
/// per processed message (24 commits made, 24 proposals and 24 commits verified, a Welcome) one verification.
double BarePublicKeyWork() {
  EVP_PKEY* a = EVP_EC_gen("P-256");
  EVP_PKEY* b = EVP_EC_gen("P-256");
  const double start = CpuMs();
  std::array<uint8_t, 64> message{};
  for (int i = 0; i < kMembers - 1; ++i) {
    // ECDH
    EVP_PKEY_CTX* derive = EVP_PKEY_CTX_new(a, nullptr);
    std::array<uint8_t, 32> secret{};
    std::size_t secretSize = secret.size();
    EVP_PKEY_derive_init(derive);
    EVP_PKEY_derive_set_peer(derive, b);
    EVP_PKEY_derive(derive, secret.data(), &secretSize);
    EVP_PKEY_CTX_free(derive);
    // ECDSA sign, then two verifications (the proposal and the winning commit)
    std::array<uint8_t, 80> signature{};
    std::size_t signatureSize = signature.size();
    EVP_MD_CTX* sign = EVP_MD_CTX_new();
    EVP_DigestSignInit(sign, nullptr, EVP_sha256(), nullptr, a);
    EVP_DigestSign(sign, signature.data(), &signatureSize, message.data(), message.size());
    EVP_MD_CTX_free(sign);
    for (int v = 0; v < 2; ++v) {
      EVP_MD_CTX* verify = EVP_MD_CTX_new();
      EVP_DigestVerifyInit(verify, nullptr, EVP_sha256(), nullptr, a);
      EVP_DigestVerify(verify, signature.data(), signatureSize, message.data(), message.size());
      EVP_MD_CTX_free(verify);
    }
  }
  const double elapsed = CpuMs() - start;
  EVP_PKEY_free(a);
  EVP_PKEY_free(b);
  return elapsed;
}

}  // namespace

int main() {
  int failures = 0;
  const auto input = Input();
  media_wire::TransportKey key{};
  for (std::size_t i = 0; i < key.size(); ++i)
    key[i] = static_cast<uint8_t>(i * 13 + 1);
  const auto mode = media_wire::TransportMode::AeadAes256GcmRtpsize;

  // A two-member group for the media: the sender's keys and the receiver's.
  const auto gatewayKey = mls::SignaturePrivateKey::Generate();
  const mls::ExternalSender gateway{gatewayKey.PublicKey(), mls::Credential{mls::kCredentialBasic, {1}, {}}};
  auto pair = MakeGroup(2, gateway);

  // --- send: interleaved, plain then DAVE, in each round ---
  std::vector<double> plainSend, daveSend;
  std::vector<std::vector<uint8_t>> plainDatagrams, daveDatagrams;
  for (int round = 0; round < kRounds; ++round) {
    for (const bool dave : {false, true}) {
      SendPipelineOptions options;
      options.initialSequence = 0;
      options.initialTimestamp = 0;
      SendPipeline pipeline(1234, mode, key, options);
      pipeline.Gate().SetAudioMode(AudioMode::PTT);
      pipeline.Gate().SetPttActive(true);
      DaveFrameEncryptor encryptor;
      encryptor.UseKeys(MakeSenderKeys(*pair[0].group, kSender));
      if (dave) pipeline.SetFrameEncryptor(&encryptor);
      std::array<uint8_t, SendPipeline::kMaxDatagramSize> out{};
      auto& kept = dave ? daveDatagrams : plainDatagrams;
      const bool keep = kept.empty();
      const double start = CpuMs();
      for (int f = 0; f < kFrames; ++f) {
        const auto result = pipeline.ProcessFrame(input[static_cast<std::size_t>(f)], out);
        if (result.size == 0) ++failures;
        if (keep) kept.emplace_back(out.begin(), out.begin() + static_cast<long>(result.size));
      }
      (dave ? daveSend : plainSend).push_back(CpuMs() - start);
      if (dave && encryptor.GetCounters().encrypted < static_cast<uint64_t>(kFrames) - 10) ++failures;
    }
  }

  // --- the bare libraries doing what the DAVE pipelines do, for the headline ratios ---
  const std::array<uint8_t, 16> frameKey{7, 1, 7, 1, 7, 1, 7, 1, 7, 1, 7, 1, 7, 1, 7, 1};
  std::vector<double> bareSend, bareReceive;
  std::vector<std::vector<uint8_t>> bareDatagrams;
  for (int round = 0; round < kRounds; ++round) {
    OpusEncoder* encoder = platformpp::bench::NewBareEncoder();
    platformpp::bench::BareFrameCipher frames(frameKey);
    platformpp::bench::BareSealer sealer(mode, key);
    std::array<uint8_t, 1276> opus{};
    std::array<uint8_t, 1500> rtp{}, out{};
    const bool keep = bareDatagrams.empty();
    const double start = CpuMs();
    for (int f = 0; f < kFrames; ++f) {
      media_wire::WriteRtpHeader(
          static_cast<uint16_t>(f), static_cast<uint32_t>(f) * 960, 1234,
          std::span<uint8_t, media_wire::kRtpFixedHeaderSize>(rtp.data(), media_wire::kRtpFixedHeaderSize));
      const int n = opus_encode(encoder, input[static_cast<std::size_t>(f)].data(), 960, opus.data(),
                                static_cast<opus_int32>(opus.size()));
      if (n <= 0) ++failures;
      const std::size_t frame = frames.Encrypt(opus.data(), static_cast<std::size_t>(n),
                                               rtp.data() + media_wire::kRtpFixedHeaderSize);
      const std::size_t sealed = sealer.Seal(rtp.data(), media_wire::kRtpFixedHeaderSize + frame, out.data());
      if (keep) bareDatagrams.emplace_back(out.begin(), out.begin() + static_cast<long>(sealed));
    }
    bareSend.push_back(CpuMs() - start);
    opus_encoder_destroy(encoder);
  }
  for (int round = 0; round < kRounds; ++round) {
    int error = 0;
    OpusDecoder* decoder = opus_decoder_create(48000, 2, &error);
    platformpp::bench::BareFrameCipher frames(frameKey);
    platformpp::bench::BareOpener opener(mode, key);
    std::array<uint8_t, 1500> frame{}, opus{};
    std::array<int16_t, kOpusFrameSamples> decoded{};
    const double start = CpuMs();
    for (const auto& d : bareDatagrams) {
      if (!opener.Open(d.data(), d.size(), frame.data())) ++failures;
      const std::size_t frameSize =
          d.size() - media_wire::kRtpFixedHeaderSize - media_wire::kTransportOverhead;
      const std::size_t payload = frames.Decrypt(frame.data(), frameSize, opus.data());
      if (payload == 0 ||
          opus_decode(decoder, opus.data(), static_cast<opus_int32>(payload), decoded.data(), 960, 0) != 960)
        ++failures;
    }
    bareReceive.push_back(CpuMs() - start);
    opus_decoder_destroy(decoder);
  }

  // --- receive ---
  std::vector<double> plainReceive, daveReceive;
  std::array<int16_t, kOpusFrameSamples> pcm{};
  for (int round = 0; round < kRounds; ++round) {
    for (const bool dave : {false, true}) {
      ReceivePipeline pipeline(mode, key);
      pipeline.MapSsrc(1234, kSender);
      DaveFrameDecryptor decryptor;
      decryptor.AddEpoch(MakeReceiveEpoch(*pair[1].group, kReceiver), 0);
      if (dave) pipeline.SetFrameDecryptor(&decryptor);
      const auto& datagrams = dave ? daveDatagrams : plainDatagrams;
      uint64_t now = 0;
      const double start = CpuMs();
      for (const auto& d : datagrams) {
        if (pipeline.OnDatagram(d, now) != ReceivePipeline::PacketResult::Accepted) ++failures;
        pipeline.PlayoutTick(now, pcm);
        now += 20;
      }
      (dave ? daveReceive : plainReceive).push_back(CpuMs() - start);
      if (dave && decryptor.GetCounters().decrypted < static_cast<uint64_t>(kFrames) - 10) ++failures;
    }
  }

  // --- a 25-member transition ---
  std::vector<double> transitions, bare;
  for (int round = 0; round < 3; ++round) {
    const double t = Transition(gatewayKey, gateway);
    if (t < 0) ++failures;
    transitions.push_back(t);
    bare.push_back(BarePublicKeyWork());
  }

  if (failures) {
    std::printf("error: %d failures\n", failures);
    return 1;
  }
  const double ps = Median(plainSend), ds = Median(daveSend), pr = Median(plainReceive),
               dr = Median(daveReceive), bs = Median(bareSend), brc = Median(bareReceive);
  const double tr = Median(transitions), br = Median(bare);
  std::printf("DAVE, %d frames per round, median of %d rounds (AES-256-GCM transport):\n", kFrames, kRounds);
  std::printf("  send:    without DAVE %.2f ms (%.1f us/frame), with DAVE %.2f ms (%.1f us/frame)\n", ps,
              1000 * ps / kFrames, ds, 1000 * ds / kFrames);
  std::printf("  receive: without DAVE %.2f ms (%.1f us/frame), with DAVE %.2f ms (%.1f us/frame)\n", pr,
              1000 * pr / kFrames, dr, 1000 * dr / kFrames);
  std::printf(
      "  transition, %d members: %.1f ms CPU across all members (target < 200 ms); bare public-key "
      "minimum %.1f ms\n",
      kMembers, tr, br);
  std::printf(
      "  bare libraries, the same work: send %.2f ms (%.1f us/frame), receive %.2f ms (%.1f us/frame)\n", bs,
      1000 * bs / kFrames, brc, 1000 * brc / kFrames);
  std::printf("DAVE's share: send with DAVE / without %.3fx, receive %.3fx (target <= 1.05x each)\n", ds / ps,
              dr / pr);
  std::printf("send ratio (SDK with DAVE / bare opus_encode + frame AES-128-GCM + AES-256-GCM seal): %.3fx\n",
              ds / bs);
  std::printf("receive ratio (SDK with DAVE / bare open + frame decrypt + opus_decode): %.3fx\n", dr / brc);
  std::printf(
      "transition ratio (MLS transition / bare public-key minimum): %.2fx; share of the 200 ms budget: "
      "%.2f\n",
      tr / br, tr / 200.0);
  return 0;
}
