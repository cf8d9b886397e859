// The group state machine: the passive-client vectors (join from a Welcome, then follow every commit, with
// the epoch authenticator checked at each epoch), and a group of five driven by an external sender as DAVE's
// voice server drives one.
#include "vectors.hpp"

#include "mls/group.hpp"

#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <set>
#include <string>

namespace group_test {

using namespace platformpp::mls;
using mls_vectors::Hex;
using mls_vectors::Load;
using mls_vectors::Text;
using mls_vectors::ToHex;

bool IsUnsupported(const Error& e) {
  const std::string what = e.what();
  return what.find("not support") != std::string::npos || what.find("does not accept") != std::string::npos;
}

// What one passive-client file did: the cases followed to the end, and those refused as unsupported with why.
struct PassiveRun {
  std::set<int> ran;
  std::map<int, std::string> skipped;
};

PassiveRun RunPassive(const char* file) {
  PassiveRun run;
  auto cases = Load(file);
  REQUIRE(cases.Size() > 0);
  for (rapidjson::SizeType i = 0; i < cases.Size(); ++i) {
    const auto& c = cases[i];
    const int index = static_cast<int>(i);
    const std::string where = std::string(file) + " #" + std::to_string(i);
    INFO(where);
    REQUIRE(c["cipher_suite"].GetInt() == 2);
    const MlsMessage keyPackageMessage = MlsMessage::Decode(Hex(c["key_package"]));
    const KeyPackage& keyPackage = std::get<KeyPackage>(keyPackageMessage.body);
    const KeyPackageBundle bundle{keyPackage, HpkePrivateKey::FromScalar(Hex(c["init_priv"])),
                                  HpkePrivateKey::FromScalar(Hex(c["encryption_priv"])),
                                  SignaturePrivateKey::FromScalar(Hex(c["signature_priv"]))};
    CHECK(bundle.initKey.PublicKey() == keyPackage.initKey);
    CHECK(bundle.encryptionKey.PublicKey() == keyPackage.leafNode.encryptionKey);
    CHECK(bundle.signatureKey.PublicKey() == keyPackage.leafNode.signatureKey);
    Group::JoinOptions options;
    if (!c["ratchet_tree"].IsNull()) options.tree = RatchetTree::Decode(Hex(c["ratchet_tree"]));
    for (const auto& psk : c["external_psks"].GetArray())
      options.externalPsks.emplace(Hex(psk["psk_id"]), Secret(Hex(psk["psk"])));
    const MlsMessage welcomeMessage = MlsMessage::Decode(Hex(c["welcome"]));
    std::unique_ptr<Group> group;
    try {
      group = std::make_unique<Group>(Group::Join(std::get<Welcome>(welcomeMessage.body), bundle, options));
    } catch (const Error& e) {
      if (!IsUnsupported(e)) throw;
      run.skipped.emplace(index, e.what());
      continue;
    }
    group->SetClock([] { return uint64_t{1700000000}; });
    CHECK(ToHex(group->EpochAuthenticator()) == ToHex(Hex(c["initial_epoch_authenticator"])));
    const auto& epochs = c["epochs"];
    try {
      for (rapidjson::SizeType e = 0; e < epochs.Size(); ++e) {
        INFO("epoch " << e);
        for (const auto& proposal : epochs[e]["proposals"].GetArray())
          group->HandleProposal(MlsMessage::Decode(Hex(proposal)));
        const auto result = group->HandleCommit(MlsMessage::Decode(Hex(epochs[e]["commit"])));
        REQUIRE(result == Group::CommitResult::Applied);
        CHECK(ToHex(group->EpochAuthenticator()) == ToHex(Hex(epochs[e]["epoch_authenticator"])));
      }
      run.ran.insert(index);
    } catch (const Error& e) {
      if (!IsUnsupported(e)) throw;
      run.skipped.emplace(index, e.what());
    }
  }
  std::string list;
  for (const auto& [index, reason] : run.skipped)
    list += "\n  #" + std::to_string(index) + ": " + reason;
  MESSAGE(file << ": " << run.ran.size() << " cases followed to the end, " << run.skipped.size() << " skipped"
               << list);
  return run;
}

// docs/mls.md states these counts: exactly these cases run to the end, and exactly these are refused, each
// for the one feature DAVE does not use that it needs.
TEST_CASE("MLS vectors: passive-client-welcome runs all 8 cases to the end") {
  const auto run = RunPassive("passive-client-welcome.json");
  CHECK(run.ran == std::set<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(run.skipped.empty());
}

TEST_CASE("MLS vectors: passive-client-handling-commit runs 7 of 13; 6 refused, each by name") {
  const auto run = RunPassive("passive-client-handling-commit.json");
  CHECK(run.ran == std::set<int>{0, 1, 2, 6, 7, 8, 9});
  const std::set<int> resumption{3, 10, 12};
  const std::set<int> contextExtensions{4, 5, 11};
  std::set<int> skipped;
  for (const auto& entry : run.skipped) {
    const int index = entry.first;
    const std::string& reason = entry.second;
    INFO("#" << index << ": " << reason);
    skipped.insert(index);
    if (resumption.count(index) != 0) CHECK(reason.find("a resumption PSK") != std::string::npos);
    if (contextExtensions.count(index) != 0)
      CHECK(reason.find("a GroupContextExtensions proposal") != std::string::npos);
  }
  CHECK(skipped == std::set<int>{3, 4, 5, 10, 11, 12});
}

// --- a group of five driven by an external sender
// -----------------------------------------------------------

struct Client {
  explicit Client(const std::string& name)
      : signer(SignaturePrivateKey::Generate()), bundle(MakeKeyPackage(signer, Options(name))) {}
  static KeyPackageOptions Options(const std::string& name) {
    KeyPackageOptions options;
    options.identity.assign(name.begin(), name.end());
    return options;
  }
  SignaturePrivateKey signer;
  KeyPackageBundle bundle;
  std::unique_ptr<Group> group;
};

struct Harness {
  SignaturePrivateKey server = SignaturePrivateKey::Generate();  // the external sender
  std::vector<std::unique_ptr<Client>> clients;

  std::vector<Extension> Extensions() const {
    Credential credential;
    credential.identity = {'s', 'e', 'r', 'v', 'e', 'r'};
    return {MakeExternalSendersExtension({{server.PublicKey(), credential}})};
  }
  std::vector<Client*> Members() {
    std::vector<Client*> out;
    for (auto& client : clients) {
      if (client->group) out.push_back(client.get());
    }
    return out;
  }
  // The server proposes to every member, one member commits, every member (the committer included) applies
  // the commit, and the new members join from the Welcome.
  void Round(const std::vector<Proposal>& proposals, Client& committer, const std::vector<Client*>& joining) {
    const GroupContext context = committer.group->Context();
    for (const Proposal& proposal : proposals) {
      const MlsMessage message = ExternalProposal(context, 0, server, proposal);
      const MlsMessage wire = MlsMessage::Decode(message.Encode());
      for (Client* member : Members())
        member->group->HandleProposal(wire);
    }
    Group::CommitOutput output = committer.group->Commit();
    const MlsMessage commit = MlsMessage::Decode(output.commit.Encode());
    for (Client* member : Members()) {
      const auto result = member->group->HandleCommit(commit);
      if (result == Group::CommitResult::Removed) member->group.reset();
    }
    if (!joining.empty()) {
      REQUIRE(output.welcome);
      const MlsMessage welcome = MlsMessage::Decode(output.welcome->Encode());
      for (Client* client : joining)
        client->group = std::make_unique<Group>(Group::Join(std::get<Welcome>(welcome.body), client->bundle));
    }
  }
  void CheckAgreement() {
    auto members = Members();
    REQUIRE_FALSE(members.empty());
    const Group& first = *members.front()->group;
    for (Client* member : members) {
      CHECK(member->group->Epoch() == first.Epoch());
      CHECK(member->group->EpochAuthenticator() == first.EpochAuthenticator());
      CHECK(member->group->Export("DAVE", Bytes{1, 2}, 16) == first.Export("DAVE", Bytes{1, 2}, 16));
      CHECK(member->group->Tree().TreeHash() == first.Tree().TreeHash());
      CHECK(member->group->Members().size() == members.size());
    }
  }
};

TEST_CASE("MLS group: five members added one at a time by an external sender, removed, re-keyed") {
  Harness h;
  for (int i = 0; i < 6; ++i)
    h.clients.push_back(std::make_unique<Client>("member" + std::to_string(i)));
  h.clients[0]->group =
      std::make_unique<Group>(Group::Create(Bytes{'c', 'a', 'l', 'l'}, h.clients[0]->bundle, h.Extensions()));
  CHECK(h.clients[0]->group->Epoch() == 0);

  // Adds, one per commit, each committed by the newest member so far.
  for (int i = 1; i < 5; ++i) {
    Client& committer = *h.Members().back();
    h.Round({Proposal{AddProposal{h.clients[i]->bundle.keyPackage}}}, committer, {h.clients[i].get()});
    h.CheckAgreement();
  }
  CHECK(h.Members().size() == 5);
  CHECK(h.clients[0]->group->Epoch() == 4);

  // Updates by reference: members 1 and 3 propose new leaf keys; member 2 commits both.
  {
    const MlsMessage update1 = h.clients[1]->group->ProposeUpdate();
    const MlsMessage update3 = h.clients[3]->group->ProposeUpdate();
    for (Client* member : h.Members()) {
      if (member != h.clients[1].get()) member->group->HandleProposal(update1);
      if (member != h.clients[3].get()) member->group->HandleProposal(update3);
    }
    const Bytes before1 = h.clients[1]->group->Tree().Leaf(h.clients[1]->group->OwnLeaf())->encryptionKey;
    h.Round({}, *h.clients[2], {});
    h.CheckAgreement();
    CHECK(h.clients[1]->group->Tree().Leaf(h.clients[1]->group->OwnLeaf())->encryptionKey != before1);
    // Member 1 took its new key into use: it can still decrypt the next commit's path.
    h.Round({}, *h.clients[4], {});
    h.CheckAgreement();
  }

  // An empty commit (an update of the committer's path) from a member in the middle.
  h.Round({}, *h.clients[2], {});
  h.CheckAgreement();

  // Remove member 3; member 1 commits. The removed member learns it and holds no group any more.
  const Bytes before = h.clients[0]->group->EpochAuthenticator();
  h.Round({Proposal{RemoveProposal{h.clients[3]->group->OwnLeaf()}}}, *h.clients[1], {});
  CHECK(h.clients[3]->group == nullptr);
  CHECK(h.Members().size() == 4);
  h.CheckAgreement();
  CHECK(h.clients[0]->group->EpochAuthenticator() != before);

  // Add and remove in one commit: member 5 joins, member 4 goes; member 0 commits.
  const LeafIndex leaving = h.clients[4]->group->OwnLeaf();
  h.Round({Proposal{RemoveProposal{leaving}}, Proposal{AddProposal{h.clients[5]->bundle.keyPackage}}},
          *h.clients[0], {h.clients[5].get()});
  CHECK(h.clients[4]->group == nullptr);
  h.CheckAgreement();
  CHECK(h.Members().size() == 4);
}

TEST_CASE("MLS group: a removed member cannot follow; tampered signatures and tags are refused") {
  Harness h;
  for (int i = 0; i < 3; ++i)
    h.clients.push_back(std::make_unique<Client>("m" + std::to_string(i)));
  h.clients[0]->group =
      std::make_unique<Group>(Group::Create(Bytes{'g'}, h.clients[0]->bundle, h.Extensions()));
  h.Round({Proposal{AddProposal{h.clients[1]->bundle.keyPackage}},
           Proposal{AddProposal{h.clients[2]->bundle.keyPackage}}},
          *h.clients[0], {h.clients[1].get(), h.clients[2].get()});
  h.CheckAgreement();

  // Member 2 is removed, but keeps a copy of its state to try the next epoch with.
  Client& removed = *h.clients[2];
  const GroupContext context = h.clients[0]->group->Context();
  const MlsMessage removal =
      ExternalProposal(context, 0, h.server, Proposal{RemoveProposal{removed.group->OwnLeaf()}});
  for (Client* member : h.Members())
    member->group->HandleProposal(removal);
  const Group::CommitOutput first = h.clients[0]->group->Commit();
  CHECK(h.clients[1]->group->HandleCommit(first.commit) == Group::CommitResult::Applied);
  CHECK(h.clients[0]->group->HandleCommit(first.commit) == Group::CommitResult::Applied);
  CHECK(removed.group->HandleCommit(first.commit) == Group::CommitResult::Removed);
  CHECK_THROWS_AS(removed.group->Export("x", {}, 16), Error);
  // The next epoch's commit means nothing to it.
  const Group::CommitOutput second = h.clients[1]->group->Commit();
  CHECK_THROWS_AS(removed.group->HandleCommit(second.commit), Error);
  removed.group.reset();
  CHECK(h.clients[0]->group->HandleCommit(second.commit) == Group::CommitResult::Applied);
  CHECK(h.clients[1]->group->HandleCommit(second.commit) == Group::CommitResult::Applied);
  h.CheckAgreement();

  // Tampering, each on a fresh commit from member 0 seen by member 1.
  const Group::CommitOutput honest = h.clients[0]->group->Commit();
  auto tampered = [&](auto change) {
    MlsMessage copy = MlsMessage::Decode(honest.commit.Encode());
    change(std::get<PublicMessage>(copy.body));
    return copy;
  };
  auto expectRefusal = [&](const MlsMessage& message, const std::string& words) {
    try {
      h.clients[1]->group->HandleCommit(message);
      FAIL("accepted a tampered commit");
    } catch (const Error& e) {
      CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, std::string(e.what()));
    }
  };
  // A bad signature under a valid membership tag.
  const Secret membershipKey = GroupTesting::MembershipKey(*h.clients[0]->group);
  const GroupContext current = h.clients[0]->group->Context();
  expectRefusal(tampered([&](PublicMessage& m) {
                  m.auth.signature[m.auth.signature.size() / 2] ^= 1;
                  m.membershipTag = PublicMessage::MembershipTag(m.Authenticated(), current, membershipKey);
                }),
                "signature");
  expectRefusal(tampered([](PublicMessage& m) { m.membershipTag[0] ^= 1; }), "membership tag");
  // A wrong confirmation tag under a valid membership tag (made with member 0's key, as only a member can).
  {
    MlsMessage copy = MlsMessage::Decode(honest.commit.Encode());
    auto& pub = std::get<PublicMessage>(copy.body);
    pub.auth.confirmationTag[0] ^= 1;
    pub.membershipTag = PublicMessage::MembershipTag(pub.Authenticated(), current, membershipKey);
    expectRefusal(copy, "confirmation tag");
  }
  // The honest commit is still accepted after all that.
  CHECK(h.clients[1]->group->HandleCommit(honest.commit) == Group::CommitResult::Applied);
  CHECK(h.clients[0]->group->HandleCommit(honest.commit) == Group::CommitResult::Applied);
  h.CheckAgreement();

  // An external proposal signed by another key than the ExternalSenders one.
  const MlsMessage forged = ExternalProposal(h.clients[0]->group->Context(), 0,
                                             SignaturePrivateKey::Generate(), Proposal{RemoveProposal{0}});
  CHECK_THROWS_AS(h.clients[1]->group->HandleProposal(forged), Error);
  // A PSK the group does not hold (DAVE uses none) is refused clearly.
  const MlsMessage psk =
      ExternalProposal(h.clients[0]->group->Context(), 0, h.server,
                       Proposal{PreSharedKeyProposal{PreSharedKeyId{1, {1}, 0, {}, 0, {2}}}});
  try {
    h.clients[1]->group->HandleProposal(psk);
    FAIL("accepted a PSK proposal");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("PSK") != std::string::npos);
  }
}

}  // namespace group_test
