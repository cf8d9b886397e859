#include "voice/dave/session.hpp"

#include "voice/dave/messages.hpp"

#include <chrono>
#include <set>

namespace platformpp::voice::dave {

namespace {

uint64_t SystemSeconds() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

mls::Bytes GroupIdOf(uint64_t channelId) {
  return IdentityOf(channelId);  // the same 8 bytes big-endian
}

}  // namespace

DaveSession::DaveSession(DaveSessionSink& sink, uint64_t selfUserId, uint64_t channelId)
    : sink_(sink), selfUserId_(selfUserId), groupId_(GroupIdOf(channelId)), now_(SystemSeconds) {
  users_.insert(selfUserId);
}

DaveSession::~DaveSession() = default;

void DaveSession::Start(int protocolVersion) {
  protocolVersion_ = protocolVersion;
  executedVersion_ = protocolVersion;
  if (protocolVersion == 0) {
    sink_.UseSendPassThrough();
    sink_.SetReceivePassThrough(true);
    SetEncrypted(false);
    return;
  }
  // Until this member is in the group it neither sends nor plays: never clear audio in a DAVE call.
  sink_.UseSendKeys(nullptr);
  sink_.SetReceivePassThrough(false);
  if (protocolVersion != 1) {
    sink_.Log("DAVE: the server chose protocol version " + std::to_string(protocolVersion) +
              ", which this client did not offer");
    return;
  }
  SendKeyPackage();
  EnsurePendingGroup();
}

void DaveSession::OnClientsConnect(const std::vector<uint64_t>& userIds) {
  users_.insert(userIds.begin(), userIds.end());
}

void DaveSession::OnClientDisconnect(uint64_t userId) {
  if (userId != selfUserId_) users_.erase(userId);
}

void DaveSession::Reset() {
  ++counters_.resets;
  group_.reset();
  pendingGroup_.reset();
  joinPackage_.reset();
  transitions_.clear();
  sink_.GroupChanged();
}

void DaveSession::SendKeyPackage() {
  if (!signatureKey_) signatureKey_ = mls::SignaturePrivateKey::Generate();
  mls::KeyPackageOptions options;
  options.identity = IdentityOf(selfUserId_);  // lifetime 0 .. 2^64-1, as the gateway requires
  joinPackage_ = mls::MakeKeyPackage(*signatureKey_, options);
  ++counters_.keyPackagesSent;
  sink_.SendBinary(Opcode::KeyPackage, WriteKeyPackageMessage(joinPackage_->keyPackage));
}

void DaveSession::EnsurePendingGroup() {
  if (protocolVersion_ != 1 || !externalSender_ || group_ || pendingGroup_) return;
  if (!signatureKey_) signatureKey_ = mls::SignaturePrivateKey::Generate();
  mls::KeyPackageOptions options;
  options.identity = IdentityOf(selfUserId_);
  const mls::KeyPackageBundle self = mls::MakeKeyPackage(*signatureKey_, options);
  pendingGroup_ = mls::Group::Create(groupId_, self, {mls::MakeExternalSendersExtension({*externalSender_})});
  pendingGroup_->SetClock(now_);
}

mls::Group* DaveSession::Target() noexcept {
  if (group_) return &*group_;
  if (pendingGroup_) return &*pendingGroup_;
  return nullptr;
}

void DaveSession::OnExternalSender(mls::ByteView payload) {
  try {
    mls::ExternalSender sender = ReadExternalSenderPackage(payload);
    if (group_) {
      // A group's external sender is fixed when it is created; a new one comes with a new group (op 24).
      if (sender != externalSender_)
        sink_.Log("DAVE: a new external sender for an established group ignored");
      return;
    }
    if (externalSender_ && sender != *externalSender_) pendingGroup_.reset();
    externalSender_ = std::move(sender);
    EnsurePendingGroup();
  } catch (const mls::Error& e) {
    sink_.Log(std::string("DAVE: external sender package refused: ") + e.what());
  }
}

void DaveSession::CheckProposal(const mls::MlsMessage& message, const mls::Group& group) const {
  const auto* pub = std::get_if<mls::PublicMessage>(&message.body);
  if (!pub) throw mls::Error("DAVE: a proposal that is not a PublicMessage");
  const mls::FramedContent& content = pub->content;
  if (content.sender.type != mls::SenderType::External || content.sender.index != 0)
    throw mls::Error("DAVE: a proposal not from the voice gateway");
  if (content.epoch != group.Epoch()) throw mls::Error("DAVE: a proposal for another epoch");
  const auto* proposal = std::get_if<mls::Proposal>(&content.body);
  if (!proposal) throw mls::Error("DAVE: a proposals message carrying something else");
  if (const auto* add = std::get_if<mls::AddProposal>(&proposal->body)) {
    const auto user = UserIdOf(add->keyPackage.leafNode.credential.identity);
    if (!user || !users_.contains(*user)) throw mls::Error("DAVE: an Add for a user who is not in the call");
  } else if (!std::holds_alternative<mls::RemoveProposal>(proposal->body)) {
    throw mls::Error("DAVE: a proposal other than Add or Remove");
  }
}

void DaveSession::OnProposals(mls::ByteView payload) {
  mls::Group* group = Target();
  if (!group) {
    sink_.Log("DAVE: proposals before this member has a group ignored");
    return;
  }
  try {
    const ProposalsMessage message = ReadProposals(payload);
    if (message.operation == ProposalsMessage::Operation::Append) {
      for (const mls::MlsMessage& proposal : message.proposals) {
        CheckProposal(proposal, *group);
        group->HandleProposal(proposal);
      }
    } else {
      for (const mls::Bytes& ref : message.revokedRefs)
        if (!group->RevokeProposal(ref)) throw mls::Error("DAVE: a revoked proposal this member never had");
    }
  } catch (const mls::Error& e) {
    // As the platform's library does: no commit from this member for the message; the others commit.
    ++counters_.proposalsRefused;
    sink_.Log(std::string("DAVE: proposals refused: ") + e.what());
    return;
  }
  if (group->ProposalCount() > 0) CommitProposals(*group);
}

void DaveSession::CommitProposals(mls::Group& group) {
  mls::Group::CommitOutput output = group.Commit();
  CommitWelcomeMessage message{std::move(output.commit), std::nullopt};
  if (output.welcome) message.welcome = std::get<mls::Welcome>(std::move(output.welcome->body));
  ++counters_.commitsSent;
  sink_.SendBinary(Opcode::CommitWelcome, WriteCommitWelcome(message));
}

void DaveSession::CheckRoster(const mls::Group& group) const {
  std::set<uint64_t> seen;
  for (const mls::LeafIndex leaf : group.Members()) {
    const mls::LeafNode* node = group.Tree().Leaf(leaf);
    const auto user = node ? UserIdOf(node->credential.identity) : std::nullopt;
    if (!user) throw mls::Error("DAVE: a member whose identity is not a user id");
    if (!seen.insert(*user).second) throw mls::Error("DAVE: a group holding one user twice");
  }
}

void DaveSession::OnAnnounceCommit(mls::ByteView payload) {
  AnnounceCommitMessage message;
  try {
    message = ReadAnnounceCommit(payload);
  } catch (const mls::Error& e) {
    sink_.Log(std::string("DAVE: announced commit unreadable: ") + e.what());
    return;
  }
  const uint16_t transitionId = message.transitionId;
  if (!group_) {
    // Pending: only this member's own first commit makes a group; any other brings a Welcome instead.
    if (!pendingGroup_ || !pendingGroup_->IsPendingCommit(message.commit)) return;
    try {
      pendingGroup_->HandleCommit(message.commit);
      CheckRoster(*pendingGroup_);
    } catch (const mls::Error& e) {
      Recover(transitionId, e.what());
      return;
    }
    group_ = std::move(pendingGroup_);
    pendingGroup_.reset();
    joinPackage_.reset();
    ++counters_.commitsApplied;
    EnteredEpoch(transitionId);
    return;
  }
  try {
    if (group_->HandleCommit(message.commit) == mls::Group::CommitResult::Removed) {
      // The gateway removes a member it will add back with a new key package.
      sink_.Log("DAVE: removed from the group; joining again");
      Reset();
      SendKeyPackage();
      EnsurePendingGroup();
      return;
    }
    CheckRoster(*group_);
  } catch (const mls::Error& e) {
    Recover(transitionId, e.what());
    return;
  }
  ++counters_.commitsApplied;
  EnteredEpoch(transitionId);
}

void DaveSession::OnWelcome(mls::ByteView payload) {
  WelcomeMessage message;
  try {
    message = ReadWelcome(payload);
  } catch (const mls::Error& e) {
    sink_.Log(std::string("DAVE: welcome unreadable: ") + e.what());
    return;
  }
  if (group_) {
    sink_.Log("DAVE: a welcome for a member already in a group ignored");
    return;
  }
  if (!joinPackage_ || !externalSender_) {
    sink_.Log("DAVE: a welcome before this member's key package and external sender ignored");
    return;
  }
  try {
    mls::Group group = mls::Group::Join(message.welcome, *joinPackage_);
    std::vector<mls::ExternalSender> senders;
    for (const mls::Extension& extension : group.Context().extensions)
      if (extension.type == mls::kExtensionExternalSenders) senders = mls::ReadExternalSenders(extension);
    if (senders.size() != 1 || senders.front() != *externalSender_)
      throw mls::Error("DAVE: a group whose external sender is not the voice gateway");
    CheckRoster(group);
    group.SetClock(now_);
    group_ = std::move(group);
  } catch (const mls::Error& e) {
    Recover(message.transitionId, e.what());
    return;
  }
  pendingGroup_.reset();
  joinPackage_.reset();
  ++counters_.welcomesApplied;
  EnteredEpoch(message.transitionId);
}

void DaveSession::EnteredEpoch(uint16_t transitionId) {
  // Receive keys at once: other members may execute the transition before this one hears of it.
  sink_.AddReceiveEpoch(MakeReceiveEpoch(*group_, selfUserId_));
  sink_.GroupChanged();
  Transition transition{1, MakeSenderKeys(*group_, selfUserId_)};
  if (transitionId == 0) {
    Execute(0, std::move(transition));
    return;
  }
  transitions_[transitionId] = std::move(transition);
  sink_.SendReadyForTransition(transitionId);
}

void DaveSession::OnPrepareTransition(uint16_t transitionId, int protocolVersion) {
  if (transitions_.contains(transitionId)) return;  // already prepared by its commit or welcome
  protocolVersion_ = protocolVersion;
  Transition transition{protocolVersion, nullptr};
  if (protocolVersion == 0) {
    sink_.SetReceivePassThrough(true);  // senders may downgrade before this member executes
  } else if (group_) {
    transition.sendKeys = MakeSenderKeys(*group_, selfUserId_);
  }
  if (transitionId == 0) {
    Execute(0, std::move(transition));
    return;
  }
  transitions_[transitionId] = std::move(transition);
  sink_.SendReadyForTransition(transitionId);
}

void DaveSession::OnExecuteTransition(uint16_t transitionId) {
  auto it = transitions_.find(transitionId);
  if (it == transitions_.end()) {
    sink_.Log("DAVE: execute for a transition this member did not prepare: " + std::to_string(transitionId));
    return;
  }
  Transition transition = std::move(it->second);
  transitions_.erase(transitions_.begin(), std::next(it));  // older ones are superseded
  Execute(transitionId, std::move(transition));
}

void DaveSession::OnResumed() {
  for (const auto& [transitionId, transition] : transitions_) {
    if (transitionId != 0) sink_.SendReadyForTransition(transitionId);
  }
}

void DaveSession::Execute(uint16_t, Transition transition) {
  if (transition.protocolVersion == 0) {
    executedVersion_ = 0;
    sink_.UseSendPassThrough();
    sink_.SetReceivePassThrough(true);
    SetEncrypted(false);
    // The voice gateway has forgotten the group: an upgrade makes a new one (op 24, epoch 1). The receive
    // side keeps its keys for frames still in flight.
    group_.reset();
    pendingGroup_.reset();
    joinPackage_.reset();
    sink_.GroupChanged();
    return;
  }
  const bool upgrade = executedVersion_ == 0;
  executedVersion_ = transition.protocolVersion;
  const bool keyed = transition.sendKeys != nullptr;
  sink_.UseSendKeys(std::move(transition.sendKeys));
  if (upgrade) sink_.SetReceivePassThrough(false);  // clear frames still in flight pass for 10 s
  SetEncrypted(keyed && group_.has_value());
}

void DaveSession::OnPrepareEpoch(uint64_t epoch, int protocolVersion) {
  protocolVersion_ = protocolVersion;
  if (epoch != 1) return;  // the group stays; a transition follows
  Reset();
  if (protocolVersion != 1) return;
  SendKeyPackage();
  EnsurePendingGroup();
}

void DaveSession::Recover(uint16_t transitionId, const std::string& why) {
  sink_.Log("DAVE: commit or welcome refused (" + why + "); asking to be added again");
  ++counters_.invalidReported;
  sink_.SendInvalidCommitWelcome(transitionId);
  Reset();
  SendKeyPackage();
  EnsurePendingGroup();
}

void DaveSession::SetEncrypted(bool encrypted) {
  if (encrypted == encrypted_) return;
  encrypted_ = encrypted;
  sink_.E2eeChanged(encrypted);
}

mls::Bytes DaveSession::EpochAuthenticator() const {
  return group_ ? group_->EpochAuthenticator() : mls::Bytes{};
}

std::optional<mls::Bytes> DaveSession::SignatureKeyOf(uint64_t userId) const {
  if (!group_) return std::nullopt;
  for (const mls::LeafIndex leaf : group_->Members()) {
    const mls::LeafNode* node = group_->Tree().Leaf(leaf);
    if (node && UserIdOf(node->credential.identity) == userId) return node->signatureKey;
  }
  return std::nullopt;
}

}  // namespace platformpp::voice::dave
