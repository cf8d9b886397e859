#include "mls/group.hpp"

#include <openssl/rand.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>

namespace platformpp::mls {

namespace {

const char* ProposalName(ProposalType type) {
  switch (type) {
    case ProposalType::Add:
      return "Add";
    case ProposalType::Update:
      return "Update";
    case ProposalType::Remove:
      return "Remove";
    case ProposalType::PreSharedKey:
      return "PreSharedKey";
    case ProposalType::ReInit:
      return "ReInit";
    case ProposalType::ExternalInit:
      return "ExternalInit";
    case ProposalType::GroupContextExtensions:
      return "GroupContextExtensions";
  }
  return "unknown";
}

[[noreturn]] void Unsupported(ProposalType type) {
  throw Error(std::string("MLS: a ") + ProposalName(type) +
              " proposal, which this implementation does not support");
}

const Extension* FindExtension(const std::vector<Extension>& extensions, uint16_t type) {
  for (const Extension& extension : extensions) {
    if (extension.type == type) return &extension;
  }
  return nullptr;
}

uint64_t SystemSeconds() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

// RequiredCapabilities (extension 3): the extension and proposal types every member must support.
void RequiredCapabilities(const GroupContext& context, std::vector<uint16_t>& extensions,
                          std::vector<uint16_t>& proposals) {
  for (const Extension& extension : context.extensions)
    extensions.push_back(extension.type);
  if (const Extension* required = FindExtension(context.extensions, kExtensionRequiredCapabilities)) {
    Reader in(required->data, "RequiredCapabilities");
    in.Items([&](Reader& item) { extensions.push_back(item.U16()); });
    in.Items([&](Reader& item) { proposals.push_back(item.U16()); });
    in.Items([&](Reader& item) { item.U16(); });  // credential types: basic only here
    in.ExpectDone();
  }
}

Secret ZeroSecret() {
  return Secret::Zero(kHashSize);
}

// psk_secret for these PSK ids: external PSKs the group holds; anything else is refused.
Secret PskSecretFor(const std::vector<PreSharedKeyId>& ids, const std::map<Bytes, Secret>& externalPsks) {
  std::vector<PskInput> inputs;
  for (const PreSharedKeyId& id : ids) {
    if (id.type != 1) throw Error("MLS: a resumption PSK, which this implementation does not support");
    auto it = externalPsks.find(id.pskId);
    if (it == externalPsks.end())
      throw Error("MLS: an external PSK this group does not hold (not supported)");
    Writer encoded;
    WritePreSharedKeyId(encoded, id);
    inputs.push_back({encoded.Data(), it->second});
  }
  return PskSecret(inputs);
}

}  // namespace

Extension MakeExternalSendersExtension(const std::vector<ExternalSender>& senders) {
  Writer out;
  out.Nested([&](Writer& list) {
    for (const ExternalSender& sender : senders) {
      list.Vector(sender.signatureKey);
      sender.credential.Write(list);
    }
  });
  return {kExtensionExternalSenders, std::move(out).Take()};
}

std::vector<ExternalSender> ReadExternalSenders(const Extension& extension) {
  std::vector<ExternalSender> senders;
  Reader in(extension.data, "ExternalSenders");
  in.Items([&](Reader& item) {
    ExternalSender sender;
    sender.signatureKey = item.Vector();
    sender.credential = Credential::Read(item);
    senders.push_back(std::move(sender));
  });
  in.ExpectDone();
  return senders;
}

Bytes ProposalRef(const AuthenticatedContent& content) {
  Writer out;
  content.Write(out);
  return RefHash("MLS 1.0 Proposal Reference", out.Data());
}

MlsMessage ExternalProposal(const GroupContext& context, uint32_t senderIndex, const SignaturePrivateKey& key,
                            Proposal proposal) {
  AuthenticatedContent content;
  content.content.groupId = context.groupId;
  content.content.epoch = context.epoch;
  content.content.sender = {SenderType::External, senderIndex};
  content.content.body = std::move(proposal);
  content.Sign(key, context);
  return MlsMessage{kProtocolVersion, PublicMessage::From(content, context, Secret())};
}

struct Group::State {
  State(GroupContext groupContext, RatchetTree ratchetTree, TreeKemPrivate ownPrivate,
        SignaturePrivateKey key, EpochSecrets epochSecrets, Bytes interimHash)
      : context(std::move(groupContext)),
        tree(std::move(ratchetTree)),
        own(std::move(ownPrivate)),
        signer(std::move(key)),
        secrets(std::move(epochSecrets)),
        interim(std::move(interimHash)) {}

  GroupContext context;
  RatchetTree tree;
  TreeKemPrivate own;
  SignaturePrivateKey signer;
  EpochSecrets secrets;
  Bytes interim;
  std::map<Bytes, ProposalRecord> proposals;  // this epoch's, by ProposalRef
  std::vector<Bytes> proposalOrder;           // in arrival order
  Bytes pendingCommit;                        // this member's commit of this epoch, encoded
  std::shared_ptr<State> pendingNext;         // the epoch it leads to
  bool removed = false;
  std::function<uint64_t()> now = SystemSeconds;
  std::map<Bytes, Secret> externalPsks;
  std::map<Bytes, HpkePrivateKey> updateKeys;  // this epoch's own Update proposals, by their public key

  // The state of the next epoch starts as a copy without this epoch's proposals and pending commit.
  State NextCopy() const {
    State next(context, tree, own, signer, secrets, interim);
    next.now = now;
    next.externalPsks = externalPsks;
    next.updateKeys = updateKeys;  // for Apply; cleared once the epoch changes
    return next;
  }

  LeafIndex OwnLeaf() const { return own.Leaf(); }

  void CheckLive() const {
    if (removed) throw Error("MLS: this member was removed from the group");
  }

  AuthenticatedContent Frame(std::variant<Bytes, Proposal, mls::Commit> body) const {
    AuthenticatedContent content;
    content.content.groupId = context.groupId;
    content.content.epoch = context.epoch;
    content.content.sender = {SenderType::Member, OwnLeaf()};
    content.content.body = std::move(body);
    content.Sign(signer, context);
    return content;
  }

  // A PublicMessage of this group and epoch: the right group and epoch, a membership tag that verifies for a
  // member sender, and the sender's signature.
  const PublicMessage& Verify(const MlsMessage& message, ContentType expected) const {
    if (std::holds_alternative<PrivateMessage>(message.body))
      throw Error("MLS: a PrivateMessage, which this implementation does not accept");
    const auto* pub = std::get_if<PublicMessage>(&message.body);
    if (!pub) throw Error("MLS: not a PublicMessage");
    const FramedContent& content = pub->content;
    if (content.groupId != context.groupId) throw Error("MLS: a message of another group");
    if (content.epoch != context.epoch) {
      throw Error("MLS: a message of epoch " + std::to_string(content.epoch) + " in epoch " +
                  std::to_string(context.epoch));
    }
    if (content.Type() != expected) throw Error("MLS: an unexpected content type");
    const AuthenticatedContent authenticated = pub->Authenticated();
    switch (content.sender.type) {
      case SenderType::Member: {
        const LeafNode* leaf = tree.Leaf(content.sender.index);
        if (!leaf)
          throw Error("MLS: a message from leaf " + std::to_string(content.sender.index) +
                      ", which is blank");
        if (!pub->VerifyMembershipTag(context, secrets.membershipKey))
          throw Error("MLS: a membership tag does not verify");
        if (!authenticated.VerifySignature(leaf->signatureKey, context))
          throw Error("MLS: a member's signature does not verify");
        break;
      }
      case SenderType::External: {
        if (expected != ContentType::Proposal) throw Error("MLS: an external sender may only propose");
        const Extension* extension = FindExtension(context.extensions, kExtensionExternalSenders);
        if (!extension) throw Error("MLS: an external proposal in a group without external senders");
        const std::vector<ExternalSender> senders = ReadExternalSenders(*extension);
        if (content.sender.index >= senders.size()) throw Error("MLS: an external sender index out of range");
        if (!pub->membershipTag.empty()) throw Error("MLS: an external proposal with a membership tag");
        if (!authenticated.VerifySignature(senders[content.sender.index].signatureKey, context))
          throw Error("MLS: an external sender's signature does not verify");
        break;
      }
      default:
        throw Error("MLS: new-member proposals and external commits are not supported");
    }
    return *pub;
  }

  // Checks and applies the proposals of a commit from `committer` to this (next-epoch) state, in the RFC's
  // order. Returns the added members, with their KeyPackages; sets `removedOwn` when this member goes.
  std::vector<std::pair<LeafIndex, KeyPackage>> Apply(const std::vector<ProposalRecord>& records,
                                                      LeafIndex committer, bool& removedOwn, bool& needsPath,
                                                      std::vector<PreSharedKeyId>& psks) {
    std::vector<const ProposalRecord*> updates;
    std::vector<const ProposalRecord*> removes;
    std::vector<const ProposalRecord*> adds;
    for (const ProposalRecord& record : records) {
      switch (record.proposal.Type()) {
        case ProposalType::PreSharedKey:
          psks.push_back(std::get<PreSharedKeyProposal>(record.proposal.body).psk);
          break;
        case ProposalType::Update:
          updates.push_back(&record);
          break;
        case ProposalType::Remove:
          removes.push_back(&record);
          break;
        case ProposalType::Add:
          adds.push_back(&record);
          break;
        default:
          Unsupported(record.proposal.Type());
      }
    }
    needsPath = records.empty() || !updates.empty() || !removes.empty();
    std::set<LeafIndex> touched;
    for (const ProposalRecord* record : updates) {
      const LeafIndex leaf = record->sender.index;
      if (record->sender.type != SenderType::Member) throw Error("MLS: an Update from a non-member");
      if (leaf == committer) throw Error("MLS: a commit that includes its committer's own Update");
      if (!touched.insert(leaf).second) throw Error("MLS: two proposals for one member");
      const LeafNode& node = std::get<UpdateProposal>(record->proposal.body).leafNode;
      if (node.source != LeafNodeSource::Update || !node.VerifySignature(context.groupId, leaf))
        throw Error("MLS: an Update's leaf node does not verify");
      if (leaf == OwnLeaf()) {
        auto key = updateKeys.find(node.encryptionKey);
        if (key == updateKeys.end()) throw Error("MLS: an Update of this member that it did not make");
        own.SetLeafKey(key->second);
      }
      tree.UpdateLeaf(leaf, node);
    }
    for (const ProposalRecord* record : removes) {
      const LeafIndex leaf = std::get<RemoveProposal>(record->proposal.body).removed;
      if (!tree.Leaf(leaf)) throw Error("MLS: a Remove of leaf " + std::to_string(leaf) + ", which is blank");
      if (leaf == committer) throw Error("MLS: a commit that removes its committer");
      if (!touched.insert(leaf).second) throw Error("MLS: two proposals for one member");
      if (leaf == OwnLeaf()) removedOwn = true;
      tree.RemoveLeaf(leaf);
    }
    std::vector<uint16_t> requiredExtensions;
    std::vector<uint16_t> requiredProposals;
    RequiredCapabilities(context, requiredExtensions, requiredProposals);
    std::vector<std::pair<LeafIndex, KeyPackage>> added;
    for (const ProposalRecord* record : adds) {
      const KeyPackage& keyPackage = std::get<AddProposal>(record->proposal.body).keyPackage;
      ValidateKeyPackage(keyPackage, now(), requiredExtensions, requiredProposals);
      for (LeafIndex leaf = 0; leaf < tree.LeafCount(); ++leaf) {
        const LeafNode* existing = tree.Leaf(leaf);
        if (existing && (existing->signatureKey == keyPackage.leafNode.signatureKey ||
                         existing->encryptionKey == keyPackage.leafNode.encryptionKey))
          throw Error("MLS: an Add of a member whose keys are already in the group");
      }
      added.emplace_back(tree.AddLeaf(keyPackage.leafNode), keyPackage);
    }
    own.Prune(tree);
    return added;
  }

  // Finishes a commit for this next-epoch state: the provisional context must be set; computes the
  // transcript hashes, the key schedule and the confirmation tag.
  void Advance(const State& previous, const Secret& commitSecret, const Secret& pskSecret,
               const AuthenticatedContent& commit) {
    const TranscriptHashes hashes = TranscriptHashes::After(previous.interim, commit);
    context.confirmedTranscriptHash = hashes.confirmed;
    secrets = EpochSecrets::Derive(previous.secrets.init, commitSecret, pskSecret, context.Encode());
    interim = TranscriptHashes::Interim(hashes.confirmed, commit.auth.confirmationTag);
  }
};

Group::Group(std::unique_ptr<State> state) : state_(std::move(state)) {}
Group::Group(Group&&) noexcept = default;
Group& Group::operator=(Group&&) noexcept = default;
Group::~Group() = default;

Group Group::Create(Bytes groupId, const KeyPackageBundle& self, std::vector<Extension> extensions) {
  ValidateKeyPackage(self.keyPackage, SystemSeconds(), {}, {});
  GroupContext context;
  context.groupId = std::move(groupId);
  context.epoch = 0;
  context.extensions = std::move(extensions);
  RatchetTree tree(self.keyPackage.leafNode);
  context.treeHash = tree.TreeHash();
  // Epoch 0 (section 11): a random init secret and no commit; the confirmed transcript hash is empty.
  Secret init(kHashSize);
  if (RAND_bytes(init.Data(), static_cast<int>(init.Size())) != 1)
    throw Error("MLS: no randomness for a group");
  EpochSecrets secrets = EpochSecrets::Derive(init, ZeroSecret(), ZeroSecret(), context.Encode());
  const Bytes tag = ConfirmationTag(secrets.confirmationKey, context.confirmedTranscriptHash);
  Bytes interim = TranscriptHashes::Interim(context.confirmedTranscriptHash, tag);
  auto state =
      std::make_unique<State>(std::move(context), std::move(tree), TreeKemPrivate(0, self.encryptionKey),
                              self.signatureKey, std::move(secrets), std::move(interim));
  Group group(std::move(state));
  return group;
}

Group Group::Join(const Welcome& welcome, const KeyPackageBundle& mine, const JoinOptions& options) {
  const std::optional<RatchetTree>& givenTree = options.tree;
  if (welcome.cipherSuite != kCipherSuite) throw Error("MLS: a Welcome of another cipher suite");
  const Bytes ref = mine.keyPackage.Ref();
  const EncryptedGroupSecrets* entry = nullptr;
  for (const EncryptedGroupSecrets& candidate : welcome.secrets) {
    if (candidate.newMember == ref) entry = &candidate;
  }
  if (!entry) throw Error("MLS: the Welcome is not for this KeyPackage");
  const Bytes plain =
      DecryptWithLabel(mine.initKey, "Welcome", welcome.encryptedGroupInfo, entry->encryptedGroupSecrets);
  Reader secretsIn(plain, "GroupSecrets");
  GroupSecrets groupSecrets = GroupSecrets::Read(secretsIn);
  secretsIn.ExpectDone();
  const Secret pskSecret = PskSecretFor(groupSecrets.psks, options.externalPsks);

  const EpochSecrets early = EpochSecrets::FromJoiner(groupSecrets.joinerSecret, pskSecret, {});
  const WelcomeKeys keys = DeriveWelcomeKeys(early.welcome);
  const Bytes infoBytes = AeadOpen(keys.key, keys.nonce, {}, welcome.encryptedGroupInfo);
  Reader infoIn(infoBytes, "GroupInfo");
  const GroupInfo info = GroupInfo::Read(infoIn);
  infoIn.ExpectDone();
  const GroupContext& context = info.groupContext;
  if (context.version != kProtocolVersion || context.cipherSuite != kCipherSuite)
    throw Error("MLS: a GroupInfo of another version or cipher suite");

  RatchetTree tree;
  if (givenTree) {
    tree = *givenTree;
  } else if (const Extension* extension = FindExtension(info.extensions, kExtensionRatchetTree)) {
    tree = RatchetTree::Decode(extension->data);
  } else {
    throw Error("MLS: a Welcome without a ratchet tree, and none given");
  }
  if (tree.TreeHash() != context.treeHash)
    throw Error("MLS: the ratchet tree does not match the GroupInfo's tree hash");
  if (!tree.ParentHashesValid()) throw Error("MLS: the ratchet tree's parent hashes do not verify");
  if (!tree.LeafSignaturesValid(context.groupId))
    throw Error("MLS: a leaf of the ratchet tree does not verify");
  const LeafNode* signer = tree.Leaf(info.signer);
  if (!signer || !info.VerifySignature(signer->signatureKey))
    throw Error("MLS: the GroupInfo's signature does not verify");
  std::optional<LeafIndex> ownLeaf;
  for (LeafIndex leaf = 0; leaf < tree.LeafCount() && !ownLeaf; ++leaf) {
    const LeafNode* node = tree.Leaf(leaf);
    if (node && *node == mine.keyPackage.leafNode) ownLeaf = leaf;
  }
  if (!ownLeaf) throw Error("MLS: this KeyPackage's leaf is not in the ratchet tree");

  EpochSecrets secrets = EpochSecrets::FromJoiner(groupSecrets.joinerSecret, pskSecret, context.Encode());
  if (!MacEqual(ConfirmationTag(secrets.confirmationKey, context.confirmedTranscriptHash),
                info.confirmationTag))
    throw Error("MLS: the GroupInfo's confirmation tag does not verify");
  Bytes interim = TranscriptHashes::Interim(context.confirmedTranscriptHash, info.confirmationTag);

  TreeKemPrivate own(*ownLeaf, mine.encryptionKey);
  if (groupSecrets.pathSecret) {
    const NodeIndex ancestor = CommonAncestor(NodeOfLeaf(*ownLeaf), NodeOfLeaf(info.signer));
    const std::vector<NodeIndex> path = tree.FilteredDirectPath(info.signer);
    auto at = std::find(path.begin(), path.end(), ancestor);
    if (at == path.end()) throw Error("MLS: a Welcome path secret for a node off the committer's path");
    const ParentNode* parent = tree.Parent(ancestor);
    if (!parent || NodeKeyFromPathSecret(*groupSecrets.pathSecret).PublicKey() != parent->encryptionKey)
      throw Error("MLS: the Welcome's path secret does not match the tree");
    own.SetPathSecrets(ancestor, *groupSecrets.pathSecret, std::vector<NodeIndex>(at + 1, path.end()));
  }
  auto state = std::make_unique<State>(context, std::move(tree), std::move(own), mine.signatureKey,
                                       std::move(secrets), std::move(interim));
  state->externalPsks = options.externalPsks;
  return Group(std::move(state));
}

const GroupContext& Group::Context() const {
  return state_->context;
}

const RatchetTree& Group::Tree() const {
  return state_->tree;
}

LeafIndex Group::OwnLeaf() const {
  return state_->OwnLeaf();
}

const Bytes& Group::EpochAuthenticator() const {
  return state_->secrets.epochAuthenticator;
}

Secret Group::Export(std::string_view label, ByteView context, std::size_t length) const {
  state_->CheckLive();
  return MlsExporter(state_->secrets.exporter, label, context, length);
}

std::vector<LeafIndex> Group::Members() const {
  std::vector<LeafIndex> members;
  for (LeafIndex leaf = 0; leaf < state_->tree.LeafCount(); ++leaf) {
    if (state_->tree.Leaf(leaf)) members.push_back(leaf);
  }
  return members;
}

void Group::SetClock(std::function<uint64_t()> now) {
  state_->now = std::move(now);
}

MlsMessage Group::ProposeAdd(const KeyPackage& keyPackage) {
  State& s = *state_;
  s.CheckLive();
  const AuthenticatedContent content = s.Frame(Proposal{AddProposal{keyPackage}});
  MlsMessage message{kProtocolVersion, PublicMessage::From(content, s.context, s.secrets.membershipKey)};
  HandleProposal(message);
  return message;
}

MlsMessage Group::ProposeRemove(LeafIndex leaf) {
  State& s = *state_;
  s.CheckLive();
  const AuthenticatedContent content = s.Frame(Proposal{RemoveProposal{leaf}});
  MlsMessage message{kProtocolVersion, PublicMessage::From(content, s.context, s.secrets.membershipKey)};
  HandleProposal(message);
  return message;
}

MlsMessage Group::ProposeUpdate() {
  State& s = *state_;
  s.CheckLive();
  HpkePrivateKey key = HpkePrivateKey::Generate();
  LeafNode leaf = *s.tree.Leaf(s.OwnLeaf());
  leaf.encryptionKey = key.PublicKey();
  leaf.source = LeafNodeSource::Update;
  leaf.parentHash.clear();
  leaf.lifetime = {};  // only KeyPackage leaves carry one
  leaf.Sign(s.signer, s.context.groupId, s.OwnLeaf());
  s.updateKeys.emplace(leaf.encryptionKey, std::move(key));
  const AuthenticatedContent content = s.Frame(Proposal{UpdateProposal{std::move(leaf)}});
  MlsMessage message{kProtocolVersion, PublicMessage::From(content, s.context, s.secrets.membershipKey)};
  HandleProposal(message);
  return message;
}

Bytes Group::HandleProposal(const MlsMessage& message) {
  State& s = *state_;
  s.CheckLive();
  const PublicMessage& pub = s.Verify(message, ContentType::Proposal);
  const Proposal& proposal = std::get<Proposal>(pub.content.body);
  const ProposalType type = proposal.Type();
  if (type == ProposalType::PreSharedKey) {
    PskSecretFor({std::get<PreSharedKeyProposal>(proposal.body).psk}, s.externalPsks);  // held, or refused
  } else if (type != ProposalType::Add && type != ProposalType::Remove && type != ProposalType::Update) {
    Unsupported(type);
  }
  if (type == ProposalType::Update && pub.content.sender.type != SenderType::Member)
    throw Error("MLS: an Update from outside the group");
  Bytes ref = ProposalRef(pub.Authenticated());
  if (s.proposals.emplace(ref, ProposalRecord{proposal, pub.content.sender}).second)
    s.proposalOrder.push_back(ref);
  return ref;
}

bool Group::RevokeProposal(ByteView ref) {
  State& s = *state_;
  s.CheckLive();
  const Bytes key(ref.begin(), ref.end());
  if (s.proposals.erase(key) == 0) return false;
  std::erase(s.proposalOrder, key);
  s.pendingCommit.clear();
  s.pendingNext.reset();
  return true;
}

std::size_t Group::ProposalCount() const {
  return state_->proposalOrder.size();
}

bool Group::IsPendingCommit(const MlsMessage& message) const {
  return state_->pendingNext && message.Encode() == state_->pendingCommit;
}

Group::CommitOutput Group::Commit(std::vector<Proposal> inlineProposals) {
  State& s = *state_;
  s.CheckLive();
  mls::Commit commit;
  std::vector<ProposalRecord> records;
  for (const Bytes& ref : s.proposalOrder) {
    const ProposalRecord& record = s.proposals.at(ref);
    const bool ownUpdate = record.proposal.Type() == ProposalType::Update &&
                           record.sender.type == SenderType::Member && record.sender.index == s.OwnLeaf();
    if (ownUpdate) continue;  // the commit's path replaces it
    commit.proposals.push_back({ref});
    records.push_back(record);
  }
  for (Proposal& proposal : inlineProposals) {
    records.push_back({proposal, {SenderType::Member, s.OwnLeaf()}});
    commit.proposals.push_back({std::move(proposal)});
  }
  State next = s.NextCopy();
  bool removedOwn = false;
  bool needsPath = false;
  std::vector<PreSharedKeyId> psks;
  const auto added = next.Apply(records, s.OwnLeaf(), removedOwn, needsPath, psks);
  const Secret pskSecret = PskSecretFor(psks, s.externalPsks);
  std::vector<LeafIndex> addedLeaves;
  addedLeaves.reserve(added.size());
  for (const auto& [leaf, keyPackage] : added)
    addedLeaves.push_back(leaf);

  // A fresh path, always: it renews this member's keys and gives the epoch new secrets.
  PreparedPath prepared =
      PreparePath(next.tree, s.OwnLeaf(), *next.tree.Leaf(s.OwnLeaf()), s.signer, s.context.groupId);
  next.context.epoch = s.context.epoch + 1;
  next.context.treeHash = next.tree.TreeHash();
  commit.path = EncryptPath(next.tree, s.OwnLeaf(), prepared, next.context.Encode(), addedLeaves);
  next.own.SetLeafKey(prepared.leafKey);
  for (std::size_t i = 0; i < prepared.filteredPath.size(); ++i)
    next.own.SetPathSecret(prepared.filteredPath[i], prepared.pathSecrets[i]);
  next.own.Prune(next.tree);

  AuthenticatedContent content = s.Frame(commit);
  const TranscriptHashes hashes = TranscriptHashes::After(s.interim, content);
  next.context.confirmedTranscriptHash = hashes.confirmed;
  next.secrets =
      EpochSecrets::Derive(s.secrets.init, prepared.commitSecret, pskSecret, next.context.Encode());
  content.auth.confirmationTag = ConfirmationTag(next.secrets.confirmationKey, hashes.confirmed);
  next.interim = TranscriptHashes::Interim(hashes.confirmed, content.auth.confirmationTag);

  CommitOutput output{
      MlsMessage{kProtocolVersion, PublicMessage::From(content, s.context, s.secrets.membershipKey)},
      std::nullopt};
  if (!added.empty()) {
    GroupInfo info;
    info.groupContext = next.context;
    info.extensions.push_back({kExtensionRatchetTree, next.tree.Encode()});
    info.confirmationTag = content.auth.confirmationTag;
    info.signer = s.OwnLeaf();
    info.Sign(s.signer);
    Welcome welcome;
    const WelcomeKeys keys = DeriveWelcomeKeys(next.secrets.welcome);
    welcome.encryptedGroupInfo = AeadSeal(keys.key, keys.nonce, {}, info.Encode());
    for (const auto& [leaf, keyPackage] : added) {
      GroupSecrets secrets;
      secrets.joinerSecret = next.secrets.joiner;
      secrets.psks = psks;
      const NodeIndex ancestor = CommonAncestor(NodeOfLeaf(s.OwnLeaf()), NodeOfLeaf(leaf));
      auto at = std::find(prepared.filteredPath.begin(), prepared.filteredPath.end(), ancestor);
      if (at != prepared.filteredPath.end())
        secrets.pathSecret =
            prepared.pathSecrets[static_cast<std::size_t>(at - prepared.filteredPath.begin())];
      Writer encoded;
      secrets.Write(encoded);
      welcome.secrets.push_back(
          {keyPackage.Ref(),
           EncryptWithLabel(keyPackage.initKey, "Welcome", welcome.encryptedGroupInfo, encoded.Data())});
    }
    output.welcome = MlsMessage{kProtocolVersion, std::move(welcome)};
  }
  next.updateKeys.clear();
  s.pendingCommit = output.commit.Encode();
  s.pendingNext = std::make_shared<State>(std::move(next));
  return output;
}

Group::CommitResult Group::HandleCommit(const MlsMessage& message) {
  State& s = *state_;
  s.CheckLive();
  if (s.pendingNext && message.Encode() == s.pendingCommit) {
    State next = std::move(*s.pendingNext);
    *state_ = std::move(next);
    return CommitResult::Applied;
  }
  const PublicMessage& pub = s.Verify(message, ContentType::Commit);
  const LeafIndex committer = pub.content.sender.index;
  if (pub.content.sender.type != SenderType::Member) throw Error("MLS: a commit from outside the group");
  if (committer == s.OwnLeaf()) throw Error("MLS: a commit of this member that it does not have pending");
  const mls::Commit& commit = std::get<mls::Commit>(pub.content.body);

  std::vector<ProposalRecord> records;
  std::set<Bytes> seen;
  for (const ProposalOrRef& entry : commit.proposals) {
    if (const auto* ref = std::get_if<Bytes>(&entry.value)) {
      auto it = s.proposals.find(*ref);
      if (it == s.proposals.end()) throw Error("MLS: a commit refers to a proposal this member has not seen");
      if (!seen.insert(*ref).second) throw Error("MLS: a commit names one proposal twice");
      records.push_back(it->second);
    } else {
      records.push_back({std::get<Proposal>(entry.value), pub.content.sender});
    }
  }
  State next = s.NextCopy();
  bool removedOwn = false;
  bool needsPath = false;
  std::vector<PreSharedKeyId> psks;
  const auto added = next.Apply(records, committer, removedOwn, needsPath, psks);
  const Secret pskSecret = PskSecretFor(psks, s.externalPsks);
  if (needsPath && !commit.path) throw Error("MLS: a commit without the UpdatePath it needs");
  if (removedOwn) {
    s.removed = true;
    s.pendingNext.reset();
    return CommitResult::Removed;
  }
  std::vector<LeafIndex> addedLeaves;
  addedLeaves.reserve(added.size());
  for (const auto& [leaf, keyPackage] : added)
    addedLeaves.push_back(leaf);

  next.context.epoch = s.context.epoch + 1;
  Secret commitSecret = ZeroSecret();
  if (commit.path) {
    ApplyUpdatePath(next.tree, committer, *commit.path, s.context.groupId);
    next.context.treeHash = next.tree.TreeHash();
    commitSecret =
        DecryptPath(next.tree, next.own, committer, *commit.path, next.context.Encode(), addedLeaves);
  } else {
    next.context.treeHash = next.tree.TreeHash();
  }
  next.own.Prune(next.tree);
  const AuthenticatedContent content = pub.Authenticated();
  next.Advance(s, commitSecret, pskSecret, content);
  if (!MacEqual(ConfirmationTag(next.secrets.confirmationKey, next.context.confirmedTranscriptHash),
                content.auth.confirmationTag))
    throw Error("MLS: a commit's confirmation tag does not verify");
  next.updateKeys.clear();
  *state_ = std::move(next);
  return CommitResult::Applied;
}

Secret GroupTesting::MembershipKey(const Group& group) {
  return group.state_->secrets.membershipKey;
}

}  // namespace platformpp::mls
