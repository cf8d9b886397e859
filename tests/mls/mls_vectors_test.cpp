// The RFC 9420 interoperability vectors of cipher suite 2 for the MLS primitives: crypto-basics, tree-math,
// secret-tree, key-schedule and deserialization. A vector that fails names its file and index.
#include "vectors.hpp"

#include "mls/cipher_suite.hpp"
#include "mls/hpke.hpp"
#include "mls/key_schedule.hpp"
#include "mls/secret_tree.hpp"
#include "mls/tls_codec.hpp"
#include "mls/tree_math.hpp"

#include <doctest/doctest.h>

namespace mls_vectors_test {

using namespace platformpp::mls;
using mls_vectors::Hex;
using mls_vectors::Load;
using mls_vectors::Text;
using mls_vectors::ToHex;

std::string Where(const char* file, std::size_t index) {
  return std::string(file) + " #" + std::to_string(index);
}

TEST_CASE("MLS vectors: crypto-basics (cipher suite 2)") {
  auto cases = Load("crypto-basics.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    INFO(Where("crypto-basics.json", i));
    REQUIRE(c["cipher_suite"].GetInt() == 2);

    const auto& ref = c["ref_hash"];
    CHECK(ToHex(RefHash(Text(ref["label"]), Hex(ref["value"]))) == ToHex(Hex(ref["out"])));

    const auto& expand = c["expand_with_label"];
    CHECK(ToHex(ExpandWithLabel(Secret(Hex(expand["secret"])), Text(expand["label"]), Hex(expand["context"]),
                                expand["length"].GetUint())
                    .Reveal()) == ToHex(Hex(expand["out"])));

    const auto& derive = c["derive_secret"];
    CHECK(ToHex(DeriveSecret(Secret(Hex(derive["secret"])), Text(derive["label"])).Reveal()) ==
          ToHex(Hex(derive["out"])));

    const auto& tree = c["derive_tree_secret"];
    CHECK(ToHex(DeriveTreeSecret(Secret(Hex(tree["secret"])), Text(tree["label"]),
                                 tree["generation"].GetUint(), tree["length"].GetUint())
                    .Reveal()) == ToHex(Hex(tree["out"])));

    const auto& sign = c["sign_with_label"];
    const Bytes pub = Hex(sign["pub"]);
    const Bytes content = Hex(sign["content"]);
    const std::string label = Text(sign["label"]);
    CHECK(VerifyWithLabel(pub, label, content, Hex(sign["signature"])));
    auto key = SignaturePrivateKey::FromScalar(Hex(sign["priv"]));
    CHECK(ToHex(key.PublicKey()) == ToHex(pub));
    const Bytes ours = SignWithLabel(key, label, content);
    CHECK(VerifyWithLabel(pub, label, content, ours));
    CHECK_FALSE(VerifyWithLabel(pub, label + "x", content, ours));  // the label is signed
    Bytes flipped = content;
    flipped[0] ^= 1;
    CHECK_FALSE(VerifyWithLabel(pub, label, flipped, ours));

    const auto& encrypt = c["encrypt_with_label"];
    auto hpkeKey = HpkePrivateKey::FromScalar(Hex(encrypt["priv"]));
    CHECK(ToHex(hpkeKey.PublicKey()) == ToHex(Hex(encrypt["pub"])));
    HpkeCiphertext given{Hex(encrypt["kem_output"]), Hex(encrypt["ciphertext"])};
    const Bytes context = Hex(encrypt["context"]);
    const std::string encryptLabel = Text(encrypt["label"]);
    CHECK(ToHex(DecryptWithLabel(hpkeKey, encryptLabel, context, given)) == ToHex(Hex(encrypt["plaintext"])));
    HpkeCiphertext fresh =
        EncryptWithLabel(hpkeKey.PublicKey(), encryptLabel, context, Hex(encrypt["plaintext"]));
    CHECK(ToHex(DecryptWithLabel(hpkeKey, encryptLabel, context, fresh)) == ToHex(Hex(encrypt["plaintext"])));
    CHECK_THROWS_AS(DecryptWithLabel(hpkeKey, encryptLabel + "x", context, fresh), Error);
    fresh.ciphertext.back() ^= 1;
    CHECK_THROWS_AS(DecryptWithLabel(hpkeKey, encryptLabel, context, fresh), Error);
  }
}

TEST_CASE("MLS vectors: tree-math") {
  auto cases = Load("tree-math.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    INFO(Where("tree-math.json", i));
    const uint32_t leaves = c["n_leaves"].GetUint();
    CHECK(NodeWidth(leaves) == c["n_nodes"].GetUint());
    CHECK(Root(leaves) == c["root"].GetUint());
    for (uint32_t node = 0; node < NodeWidth(leaves); ++node) {
      INFO("node " << node);
      const auto& left = c["left"][node];
      const auto& right = c["right"][node];
      const auto& parent = c["parent"][node];
      const auto& sibling = c["sibling"][node];
      if (left.IsNull()) {
        CHECK_THROWS_AS(Left(node), Error);
      } else {
        CHECK(Left(node) == left.GetUint());
      }
      if (right.IsNull()) {
        CHECK_THROWS_AS(Right(node), Error);
      } else {
        CHECK(Right(node) == right.GetUint());
      }
      if (parent.IsNull()) {
        CHECK_THROWS_AS(Parent(node, leaves), Error);
      } else {
        CHECK(Parent(node, leaves) == parent.GetUint());
        CHECK(IsAncestor(parent.GetUint(), node));
      }
      if (sibling.IsNull()) {
        CHECK_THROWS_AS(Sibling(node, leaves), Error);
      } else {
        CHECK(Sibling(node, leaves) == sibling.GetUint());
      }
    }
    CHECK_THROWS_AS(Parent(NodeWidth(leaves), leaves), Error);  // outside the tree
  }
}

TEST_CASE("MLS tree math: direct path, copath and common ancestor agree with the parent relation") {
  for (uint32_t leaves : {1u, 2u, 4u, 8u, 16u}) {
    for (LeafIndex a = 0; a < leaves; ++a) {
      auto path = DirectPath(NodeOfLeaf(a), leaves);
      auto copath = Copath(NodeOfLeaf(a), leaves);
      REQUIRE(path.size() == copath.size());
      NodeIndex node = NodeOfLeaf(a);
      for (std::size_t k = 0; k < path.size(); ++k) {
        CHECK(copath[k] == Sibling(node, leaves));
        node = Parent(node, leaves);
        CHECK(path[k] == node);
      }
      if (leaves > 1) CHECK(path.back() == Root(leaves));
      for (LeafIndex b = 0; b < leaves; ++b) {
        const NodeIndex ancestor = CommonAncestor(NodeOfLeaf(a), NodeOfLeaf(b));
        CHECK(IsAncestor(ancestor, NodeOfLeaf(a)));
        CHECK(IsAncestor(ancestor, NodeOfLeaf(b)));
        if (a != b) {  // the lowest: no child of it holds both
          CHECK_FALSE(
              (IsAncestor(Left(ancestor), NodeOfLeaf(a)) && IsAncestor(Left(ancestor), NodeOfLeaf(b))));
          CHECK_FALSE(
              (IsAncestor(Right(ancestor), NodeOfLeaf(a)) && IsAncestor(Right(ancestor), NodeOfLeaf(b))));
        }
      }
    }
  }
}

TEST_CASE("MLS vectors: secret-tree and sender data") {
  auto cases = Load("secret-tree.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    INFO(Where("secret-tree.json", i));
    REQUIRE(c["cipher_suite"].GetInt() == 2);
    const auto& sender = c["sender_data"];
    KeyAndNonce senderKeys =
        SenderDataKeys(Secret(Hex(sender["sender_data_secret"])), Hex(sender["ciphertext"]));
    CHECK(ToHex(senderKeys.key.Reveal()) == ToHex(Hex(sender["key"])));
    CHECK(ToHex(senderKeys.nonce.Reveal()) == ToHex(Hex(sender["nonce"])));

    const auto& leaves = c["leaves"];
    SecretTree tree(Secret(Hex(c["encryption_secret"])), leaves.Size());
    for (rapidjson::SizeType leaf = 0; leaf < leaves.Size(); ++leaf) {
      for (const auto& generation : leaves[leaf].GetArray()) {
        const uint32_t g = generation["generation"].GetUint();
        INFO("leaf " << leaf << " generation " << g);
        KeyAndNonce handshake = tree.Ratchet(leaf, RatchetType::Handshake).Take(g);
        KeyAndNonce application = tree.Ratchet(leaf, RatchetType::Application).Take(g);
        CHECK(ToHex(handshake.key.Reveal()) == ToHex(Hex(generation["handshake_key"])));
        CHECK(ToHex(handshake.nonce.Reveal()) == ToHex(Hex(generation["handshake_nonce"])));
        CHECK(ToHex(application.key.Reveal()) == ToHex(Hex(generation["application_key"])));
        CHECK(ToHex(application.nonce.Reveal()) == ToHex(Hex(generation["application_nonce"])));
        // A key is handed out once.
        CHECK_THROWS_AS(tree.Ratchet(leaf, RatchetType::Application).Take(g), Error);
      }
    }
  }
}

TEST_CASE("MLS hash ratchet: out of order within the window, once each, bounded skip") {
  HashRatchet ratchet(Secret(Bytes(32, 7)));
  KeyAndNonce five = ratchet.Take(5);
  KeyAndNonce two = ratchet.Take(2);  // skipped, kept
  CHECK_THROWS_AS(ratchet.Take(2), Error);
  CHECK_THROWS_AS(ratchet.Take(5), Error);
  CHECK(ratchet.NextGeneration() == 6);
  CHECK_FALSE(two.key == five.key);
  // At most kMaxForward ahead: one more is refused, and the refusal changes nothing.
  CHECK_THROWS_AS(ratchet.Take(6 + HashRatchet::kMaxForward + 1), Error);
  CHECK(ratchet.NextGeneration() == 6);
  ratchet.Take(6 + HashRatchet::kMaxForward);
  // Of the skipped keys only the last kMaxRetained are kept.
  CHECK_THROWS_AS(ratchet.Take(7), Error);
  ratchet.Take(6 + HashRatchet::kMaxForward - 1);
  // A sender's Next and a receiver's Take agree.
  HashRatchet sender(Secret(Bytes(32, 9)));
  HashRatchet receiver(Secret(Bytes(32, 9)));
  for (int i = 0; i < 3; ++i) {
    auto [generation, keys] = sender.Next();
    CHECK(receiver.Take(generation).key == keys.key);
  }
}

Bytes GroupContext(ByteView groupId, uint64_t epoch, ByteView treeHash, ByteView confirmedTranscriptHash) {
  Writer out;
  out.U16(kProtocolVersion);
  out.U16(kCipherSuite);
  out.Vector(groupId);
  out.U64(epoch);
  out.Vector(treeHash);
  out.Vector(confirmedTranscriptHash);
  out.Varint(0);  // no extensions
  return std::move(out).Take();
}

TEST_CASE("MLS vectors: key-schedule and the exporter") {
  auto cases = Load("key-schedule.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    REQUIRE(c["cipher_suite"].GetInt() == 2);
    const Bytes groupId = Hex(c["group_id"]);
    Secret init(Hex(c["initial_init_secret"]));
    const auto& epochs = c["epochs"];
    for (rapidjson::SizeType e = 0; e < epochs.Size(); ++e) {
      const auto& epoch = epochs[e];
      INFO(Where("key-schedule.json", i) << " epoch " << e);
      const Bytes context = Hex(epoch["group_context"]);
      CHECK(ToHex(GroupContext(groupId, e, Hex(epoch["tree_hash"]),
                               Hex(epoch["confirmed_transcript_hash"]))) == ToHex(context));
      EpochSecrets secrets = EpochSecrets::Derive(init, Secret(Hex(epoch["commit_secret"])),
                                                  Secret(Hex(epoch["psk_secret"])), context);
      CHECK(ToHex(secrets.joiner.Reveal()) == ToHex(Hex(epoch["joiner_secret"])));
      CHECK(ToHex(secrets.welcome.Reveal()) == ToHex(Hex(epoch["welcome_secret"])));
      CHECK(ToHex(secrets.init.Reveal()) == ToHex(Hex(epoch["init_secret"])));
      CHECK(ToHex(secrets.senderData.Reveal()) == ToHex(Hex(epoch["sender_data_secret"])));
      CHECK(ToHex(secrets.encryption.Reveal()) == ToHex(Hex(epoch["encryption_secret"])));
      CHECK(ToHex(secrets.exporter.Reveal()) == ToHex(Hex(epoch["exporter_secret"])));
      CHECK(ToHex(secrets.epochAuthenticator) == ToHex(Hex(epoch["epoch_authenticator"])));
      CHECK(ToHex(secrets.external.Reveal()) == ToHex(Hex(epoch["external_secret"])));
      CHECK(ToHex(secrets.confirmationKey.Reveal()) == ToHex(Hex(epoch["confirmation_key"])));
      CHECK(ToHex(secrets.membershipKey.Reveal()) == ToHex(Hex(epoch["membership_key"])));
      CHECK(ToHex(secrets.resumptionPsk.Reveal()) == ToHex(Hex(epoch["resumption_psk"])));
      CHECK(ToHex(secrets.ExternalPublicKey()) == ToHex(Hex(epoch["external_pub"])));
      const auto& exporter = epoch["exporter"];
      // The vectors' exporter label is used as it is written (the hex text), not decoded.
      CHECK(ToHex(MlsExporter(secrets.exporter, Text(exporter["label"]), Hex(exporter["context"]),
                              exporter["length"].GetUint())
                      .Reveal()) == ToHex(Hex(exporter["secret"])));
      // A joiner who gets the joiner secret from a Welcome derives the same epoch.
      EpochSecrets joined =
          EpochSecrets::FromJoiner(secrets.joiner, Secret(Hex(epoch["psk_secret"])), context);
      CHECK(joined.epochAuthenticator == secrets.epochAuthenticator);
      init = secrets.init;
    }
  }
}

TEST_CASE("MLS vectors: psk_secret (external PSKs, as the passive-client vectors use them)") {
  auto cases = Load("psk_secret.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    INFO(Where("psk_secret.json", i));
    REQUIRE(c["cipher_suite"].GetInt() == 2);
    std::vector<PskInput> inputs;
    for (const auto& psk : c["psks"].GetArray()) {
      Writer id;  // PreSharedKeyID of an external PSK
      id.U8(1);
      id.Vector(Hex(psk["psk_id"]));
      id.Vector(Hex(psk["psk_nonce"]));
      inputs.push_back({id.Data(), Secret(Hex(psk["psk"]))});
    }
    CHECK(ToHex(PskSecret(inputs).Reveal()) == ToHex(Hex(c["psk_secret"])));
  }
}

TEST_CASE("MLS vectors: deserialization (variable-length headers)") {
  auto cases = Load("deserialization.json");
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    INFO(Where("deserialization.json", i));
    const Bytes header = Hex(cases[i]["vlbytes_header"]);
    const std::size_t length = cases[i]["length"].GetUint();
    Reader reader(header);
    CHECK(reader.Varint() == length);
    CHECK(reader.Done());
    Writer writer;
    writer.Varint(length);
    CHECK(ToHex(writer.Data()) == ToHex(header));
  }
}

}  // namespace mls_vectors_test
