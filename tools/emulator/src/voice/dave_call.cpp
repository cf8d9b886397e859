#include "voice/dave_call.hpp"

#include <algorithm>
#include <charconv>
#include <utility>

#include "mls/key_package.hpp"
#include "voice/dave_wire.hpp"

namespace platformpp::emulator {

namespace {

// DAVE's basic credential identity (and group id): the snowflake as a big-endian u64.
mls::Bytes snowflake_identity(std::string_view id) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), value);
  if (error != std::errc{} || end != id.data() + id.size()) return {};
  mls::Bytes out(8);
  for (int i = 7; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value & 0xFF);
    value >>= 8;
  }
  return out;
}

std::string prepare_epoch_json(int version, std::uint64_t epoch) {
  return "{\"protocol_version\":" + std::to_string(version) + ",\"epoch\":" + std::to_string(epoch) + "}";
}

std::string prepare_transition_json(int version, std::uint16_t id) {
  return "{\"protocol_version\":" + std::to_string(version) + ",\"transition_id\":" + std::to_string(id) +
         "}";
}

}  // namespace

DaveExternalSender DaveExternalSender::generate() {
  auto key = mls::SignaturePrivateKey::Generate();
  // The credential names the gateway; members only compare it with the ExternalSenders extension.
  const std::string name = "platformpp-emulator voice gateway";
  mls::ExternalSender sender{
      key.PublicKey(), mls::Credential{mls::kCredentialBasic, mls::Bytes(name.begin(), name.end()), {}}};
  return DaveExternalSender{std::move(key), std::move(sender)};
}

DaveCall::DaveCall(const DaveExternalSender& gateway, std::string lobby_id,
                   std::int64_t transition_timeout_ms, std::int64_t new_group_wait_ms)
    : gateway_(gateway),
      lobby_id_(std::move(lobby_id)),
      transition_timeout_ms_(transition_timeout_ms),
      new_group_wait_ms_(new_group_wait_ms) {}

mls::Bytes DaveCall::group_id() const {
  return snowflake_identity(lobby_id_);
}

bool DaveCall::in_good_standing(const Member& member) const {
  return established_ && member.leaf.has_value() && !member.flagged;
}

std::vector<std::string> DaveCall::group_members() const {
  std::vector<std::string> out;
  for (const auto& slot : leaves_) {
    if (!slot) continue;
    const auto it = members_.find(*slot);
    if (it != members_.end() && in_good_standing(it->second)) out.push_back(*slot);
  }
  return out;
}

std::map<std::string, std::uint32_t> DaveCall::leaves() const {
  std::map<std::string, std::uint32_t> out;
  for (const auto& [user_id, member] : members_) {
    if (established_ && member.leaf) out.emplace(user_id, *member.leaf);
  }
  return out;
}

bool DaveCall::everyone_can_dave() const {
  return std::all_of(members_.begin(), members_.end(),
                     [](const auto& entry) { return entry.second.max_version >= kDaveProtocolVersion; });
}

std::vector<DaveOutgoing> DaveCall::take_outgoing() {
  return std::exchange(outgoing_, {});
}

void DaveCall::send(const std::string& user_id, int opcode, std::string payload, bool binary) {
  outgoing_.push_back(DaveOutgoing{user_id, opcode, std::move(payload), binary});
}

void DaveCall::send_external_sender(const std::string& user_id) {
  send(user_id, dave_op::kExternalSenderPackage, dave_wire::external_sender_package(gateway_.sender), true);
  members_.at(user_id).has_external_sender = true;
}

// ---- members ---------------------------------------------------------------------------------------------

int DaveCall::join(const std::string& user_id, int max_version, std::int64_t now_ms) {
  if (members_.count(user_id) != 0) leave(user_id, now_ms);
  const bool first = members_.empty();
  auto& member = members_[user_id];
  member.max_version = max_version;
  if (first) {
    reset_group();
    version_ = max_version >= kDaveProtocolVersion && !forced_plain_ ? kDaveProtocolVersion : 0;
  } else if (version_ == kDaveProtocolVersion && max_version < kDaveProtocolVersion) {
    downgrade(now_ms);  // a member who cannot do DAVE: everyone falls back to transport encryption only
  }
  if (version_ == kDaveProtocolVersion) send_external_sender(user_id);
  return version_;
}

void DaveCall::leave(const std::string& user_id, std::int64_t now_ms) {
  const auto it = members_.find(user_id);
  if (it == members_.end()) return;
  const Member member = std::move(it->second);
  members_.erase(it);
  forget_member_in_transitions(user_id);
  if (members_.empty()) {
    reset_group();
    return;
  }
  if (version_ != kDaveProtocolVersion) {
    // The last member who could not do DAVE left: the call upgrades.
    if (!forced_plain_ && everyone_can_dave()) upgrade();
    return;
  }
  if (member.add_ref) revoke(*member.add_ref);
  if (!established_) {
    propose_pending_adds(now_ms);  // the member a new group's Adds waited for may be the one who left
    return;
  }
  if (!member.leaf) return;
  const auto remaining = group_members();
  if (remaining.size() <= 1) {
    // No member keeps a group to itself: the sole one (if any) starts a new one, which the pending
    // members (with their key packages) will form with it.
    reset_group();
    if (remaining.size() == 1) {
      auto& sole = members_.at(remaining.front());
      sole.key_package.reset();
      send(remaining.front(), dave_op::kPrepareEpoch, prepare_epoch_json(kDaveProtocolVersion, 1), false);
      send(remaining.front(), dave_op::kPrepareTransition, prepare_transition_json(kDaveProtocolVersion, 0),
           false);
    }
    propose_pending_adds(now_ms);
    return;
  }
  propose_remove(user_id, *member.leaf);
}

std::optional<std::string> DaveCall::key_package(const std::string& user_id, std::string_view payload,
                                                 std::int64_t now_ms) {
  const auto it = members_.find(user_id);
  // Not in a DAVE call (a message sent before a downgrade reached the client): nothing to do.
  if (it == members_.end() || version_ != kDaveProtocolVersion || !it->second.has_external_sender) {
    return std::nullopt;
  }
  mls::KeyPackage key_package;
  try {
    key_package = dave_wire::read_key_package(payload);
    // The lifetime must be the whole range (checked next), so the time of the check does not matter.
    mls::ValidateKeyPackage(key_package, 0, {}, {});
  } catch (const mls::Error& e) {
    return std::string("invalid key package: ") + e.what();
  }
  const auto& leaf = key_package.leafNode;
  if (leaf.credential.type != mls::kCredentialBasic ||
      leaf.credential.identity != snowflake_identity(user_id)) {
    return std::string("key package credential is not the user's id");
  }
  if (leaf.lifetime.notBefore != 0 || leaf.lifetime.notAfter != UINT64_MAX) {
    return std::string("key package lifetime is not 0 to 2^64-1");
  }
  ++counters_.key_packages;
  auto& member = it->second;
  // One key package at a time: a new one replaces the pending one, and a member of the group that sends
  // one has started over (it is removed, then added with it).
  if (member.add_ref) revoke(*member.add_ref);
  if (in_good_standing(member)) {
    member.flagged = true;
    if (group_members().empty()) {
      reset_group();
      member.key_package = std::move(key_package);
      propose_pending_adds(now_ms);
      return std::nullopt;
    }
    propose_remove(user_id, *member.leaf);
  }
  member.key_package = std::move(key_package);
  propose_pending_adds(now_ms);
  return std::nullopt;
}

// ---- proposals -------------------------------------------------------------------------------------------

mls::Bytes DaveCall::sign_proposal(mls::Proposal proposal, const std::string& subject, std::uint32_t leaf) {
  mls::GroupContext context;
  context.groupId = group_id();
  context.epoch = established_ ? epoch_ : 0;
  const bool add = proposal.Type() == mls::ProposalType::Add;
  const auto message = mls::ExternalProposal(context, 0, gateway_.key, std::move(proposal));
  auto ref = mls::ProposalRef(std::get<mls::PublicMessage>(message.body).Authenticated());
  // One signing, the same bytes to everyone: a member's commit names the proposal by the hash of them.
  if (add) members_.at(subject).add_ref = ref;
  proposals_[ref] = Proposal{message.Encode(), add, subject, leaf};
  ++counters_.proposals_sent;
  return ref;
}

void DaveCall::send_proposals(const std::vector<mls::Bytes>& refs,
                              const std::vector<std::string>& recipients) {
  if (refs.empty()) return;
  std::vector<mls::Bytes> messages;
  messages.reserve(refs.size());
  for (const auto& ref : refs)
    messages.push_back(proposals_.at(ref).encoded);
  const auto payload = dave_wire::append_proposals(messages);
  for (const auto& recipient : recipients) {
    auto& seen = members_.at(recipient).seen;
    seen.insert(refs.begin(), refs.end());
    send(recipient, dave_op::kProposals, payload, true);
  }
}

void DaveCall::propose_pending_adds(std::int64_t now_ms) {
  std::vector<std::string> pending;
  bool every_key_package = true;
  for (const auto& [user_id, member] : members_) {
    if (!member.has_external_sender || in_good_standing(member)) continue;
    if (!member.key_package) {
      every_key_package = false;
    } else if (!member.add_ref) {
      pending.push_back(user_id);
    }
  }
  if (pending.empty()) {
    adds_held_until_ms_.reset();  // the held ones left
    return;
  }
  if (!established_ && !every_key_package) {
    if (!adds_held_until_ms_) adds_held_until_ms_ = now_ms + new_group_wait_ms_;
    if (now_ms < *adds_held_until_ms_) return;
    ++counters_.new_group_waits_expired;
  }
  adds_held_until_ms_.reset();
  std::vector<mls::Bytes> refs;
  refs.reserve(pending.size());
  for (const auto& user_id : pending)
    refs.push_back(
        sign_proposal(mls::Proposal{mls::AddProposal{*members_.at(user_id).key_package}}, user_id, 0));
  if (established_) return send_proposals(refs, group_members());
  // No group yet: every pending member with a key package has a local group of its own at epoch 0, and is
  // sent the others' Adds; the first commit the gateway takes makes the group.
  for (const auto& [user_id, member] : members_) {
    if (member.key_package && member.has_external_sender) send_pending_adds_to(user_id);
  }
}

void DaveCall::send_pending_adds_to(const std::string& user_id) {
  auto& member = members_.at(user_id);
  std::vector<mls::Bytes> messages;
  for (const auto& [ref, proposal] : proposals_) {
    if (!proposal.add || proposal.user_id == user_id || member.seen.count(ref) != 0) continue;
    member.seen.insert(ref);
    messages.push_back(proposal.encoded);
  }
  if (!messages.empty()) send(user_id, dave_op::kProposals, dave_wire::append_proposals(messages), true);
}

void DaveCall::propose_remove(const std::string& user_id, std::uint32_t leaf) {
  std::vector<std::string> recipients;
  for (auto& other_id : group_members()) {
    if (other_id != user_id) recipients.push_back(std::move(other_id));
  }
  send_proposals({sign_proposal(mls::Proposal{mls::RemoveProposal{leaf}}, user_id, leaf)}, recipients);
}

void DaveCall::revoke(const mls::Bytes& ref) {
  const auto it = proposals_.find(ref);
  if (it == proposals_.end()) return;
  const auto payload = dave_wire::revoke_proposals({ref});
  for (auto& [member_id, member] : members_) {
    if (member.seen.erase(ref) != 0) send(member_id, dave_op::kProposals, payload, true);
  }
  if (it->second.add) {
    const auto subject = members_.find(it->second.user_id);
    if (subject != members_.end() && subject->second.add_ref == ref) subject->second.add_ref.reset();
  }
  proposals_.erase(it);
}

// ---- commits ---------------------------------------------------------------------------------------------

std::optional<std::string> DaveCall::check_commit(const Member& member, const mls::MlsMessage& message,
                                                  const std::optional<mls::Welcome>& welcome) const {
  const auto* public_message = std::get_if<mls::PublicMessage>(&message.body);
  if (public_message == nullptr) return "not a PublicMessage";
  const auto& content = public_message->content;
  if (content.groupId != group_id()) return "another group";
  if (content.Type() != mls::ContentType::Commit) return "not a commit";
  if (content.sender.type != mls::SenderType::Member) return "not from a member";
  if (content.epoch != (established_ ? epoch_ : 0)) return "a past or future epoch";
  const mls::LeafNode* own_leaf = nullptr;
  if (established_) {
    if (!in_good_standing(member) || content.sender.index != *member.leaf)
      return "not from this member's leaf";
    own_leaf = &*member.leaf_node;
  } else {
    // Before the group: the committer's own local group, where it alone holds leaf 0.
    if (!member.key_package || content.sender.index != 0) return "not from a pending member's local group";
    own_leaf = &member.key_package->leafNode;
  }
  const auto& commit = std::get<mls::Commit>(content.body);
  if (commit.proposals.empty()) return "no proposals";
  std::set<mls::Bytes> refs;
  bool adds = false;
  for (const auto& entry : commit.proposals) {
    const auto* ref = std::get_if<mls::Bytes>(&entry.value);
    if (ref == nullptr) return "a proposal by value";
    const auto proposal = proposals_.find(*ref);
    if (proposal == proposals_.end() || !refs.insert(*ref).second) return "an unknown or repeated proposal";
    adds = adds || proposal->second.add;
  }
  if (refs != member.seen) return "not every proposal of the epoch";
  if (commit.path && (commit.path->leafNode.credential != own_leaf->credential ||
                      commit.path->leafNode.signatureKey != own_leaf->signatureKey)) {
    return "the committer's credential or signature key changed";
  }
  if (adds != welcome.has_value()) return adds ? "adds without a Welcome" : "a Welcome without adds";
  if (welcome) {
    for (const auto& ref : refs) {
      const auto& proposal = proposals_.at(ref);
      if (!proposal.add) continue;
      const auto key_package_ref = members_.at(proposal.user_id).key_package->Ref();
      const bool covered =
          std::any_of(welcome->secrets.begin(), welcome->secrets.end(),
                      [&](const auto& secrets) { return secrets.newMember == key_package_ref; });
      if (!covered) return "a Welcome missing an added member";
    }
  }
  return std::nullopt;
}

void DaveCall::commit_welcome(const std::string& user_id, std::string_view payload, std::int64_t now_ms) {
  const auto it = members_.find(user_id);
  if (it == members_.end() || version_ != kDaveProtocolVersion) return;
  auto& member = it->second;
  dave_wire::CommitWelcome received;
  try {
    received = dave_wire::read_commit_welcome(payload);
  } catch (const mls::Error&) {
    ++counters_.commits_refused;
    return;
  }
  if (check_commit(member, received.commit, received.welcome)) {
    ++counters_.commits_refused;
    return;
  }
  const auto& commit = std::get<mls::Commit>(std::get<mls::PublicMessage>(received.commit.body).content.body);
  // Who is told of the commit: the group before it (before the first commit, the committer alone).
  std::vector<std::string> announced;
  if (established_) {
    announced = group_members();
  } else {
    announced = {user_id};
    leaves_ = {user_id};
    member.leaf = 0;
    member.leaf_node = member.key_package->leafNode;
    member.key_package.reset();
  }
  std::vector<std::string> added;
  // RFC 9420 12.3: removals first, then additions in the commit's order, each at the leftmost blank leaf.
  for (const auto& entry : commit.proposals) {
    const auto& proposal = proposals_.at(std::get<mls::Bytes>(entry.value));
    if (proposal.add) continue;
    if (proposal.leaf < leaves_.size()) leaves_[proposal.leaf].reset();
    const auto removed = members_.find(proposal.user_id);
    if (removed != members_.end() && removed->second.leaf == proposal.leaf) {
      removed->second.leaf.reset();
      removed->second.leaf_node.reset();
    }
  }
  for (const auto& entry : commit.proposals) {
    const auto& proposal = proposals_.at(std::get<mls::Bytes>(entry.value));
    if (!proposal.add) continue;
    const auto blank = std::find(leaves_.begin(), leaves_.end(), std::nullopt);
    const auto index = static_cast<std::uint32_t>(blank - leaves_.begin());
    if (blank == leaves_.end()) {
      leaves_.emplace_back(proposal.user_id);
    } else {
      *blank = proposal.user_id;
    }
    auto& joined = members_.at(proposal.user_id);
    joined.leaf = index;
    joined.leaf_node = joined.key_package->leafNode;
    joined.flagged = false;
    added.push_back(proposal.user_id);
  }
  if (commit.path) member.leaf_node = commit.path->leafNode;
  epoch_ = established_ ? epoch_ + 1 : 1;
  established_ = true;
  ++counters_.commits_accepted;

  const auto id = next_transition_id();
  const auto announce = dave_wire::announce_commit(id, received.commit_bytes);
  for (const auto& recipient : announced)
    send(recipient, dave_op::kAnnounceCommit, announce, true);
  for (const auto& joined_id : added) {
    auto& joined = members_.at(joined_id);
    // Each welcomed member gets the Welcome with only its own group secrets.
    auto own = *received.welcome;
    const auto key_package_ref = joined.key_package->Ref();
    own.secrets.erase(
        std::remove_if(own.secrets.begin(), own.secrets.end(),
                       [&](const auto& secrets) { return secrets.newMember != key_package_ref; }),
        own.secrets.end());
    send(joined_id, dave_op::kWelcome, dave_wire::welcome(id, own), true);
    ++counters_.welcomes_sent;
    joined.key_package.reset();
  }
  // A new epoch: the proposals of the last one are spent.
  proposals_.clear();
  for (auto& [_, each] : members_) {
    each.seen.clear();
    each.add_ref.reset();
  }
  const auto group = group_members();
  const std::set<std::string> waiting(group.begin(), group.end());
  start_transition(id, waiting, waiting, now_ms);
  // Pending members the commit did not add (their key package came in while it was being made).
  propose_pending_adds(now_ms);
}

// ---- transitions -----------------------------------------------------------------------------------------

std::uint16_t DaveCall::next_transition_id() {
  // 0 means "execute at once" (initialisation): never a commit's or downgrade's id.
  if (++last_transition_id_ == 0) ++last_transition_id_;
  return last_transition_id_;
}

void DaveCall::start_transition(std::uint16_t id, std::set<std::string> waiting,
                                std::set<std::string> recipients, std::int64_t now_ms) {
  if (recipients.empty()) return;
  transitions_[id] = Transition{std::move(waiting), std::move(recipients), now_ms + transition_timeout_ms_};
  if (transitions_[id].waiting.empty()) execute(id);
}

void DaveCall::execute(std::uint16_t id) {
  const auto it = transitions_.find(id);
  if (it == transitions_.end()) return;
  const auto recipients = std::move(it->second.recipients);
  transitions_.erase(it);
  ++counters_.transitions_executed;
  const auto json = "{\"transition_id\":" + std::to_string(id) + "}";
  for (const auto& recipient : recipients) {
    if (members_.count(recipient) != 0) send(recipient, dave_op::kExecuteTransition, json, false);
  }
}

void DaveCall::ready_for_transition(const std::string& user_id, std::uint16_t transition_id) {
  const auto it = transitions_.find(transition_id);
  if (it == transitions_.end()) return;
  it->second.waiting.erase(user_id);
  if (it->second.waiting.empty()) execute(transition_id);
}

void DaveCall::forget_member_in_transitions(const std::string& user_id) {
  std::vector<std::uint16_t> ready;
  for (auto& [id, transition] : transitions_) {
    transition.recipients.erase(user_id);
    if (transition.waiting.erase(user_id) != 0 && transition.waiting.empty()) ready.push_back(id);
  }
  for (const auto id : ready)
    execute(id);
}

void DaveCall::tick(std::int64_t now_ms) {
  std::vector<std::uint16_t> due;
  for (const auto& [id, transition] : transitions_) {
    if (transition.deadline_ms <= now_ms) due.push_back(id);
  }
  for (const auto id : due) {
    ++counters_.transitions_timed_out;
    execute(id);
  }
  if (adds_held_until_ms_ && now_ms >= *adds_held_until_ms_) propose_pending_adds(now_ms);
}

void DaveCall::invalid_commit_welcome(const std::string& user_id, std::uint16_t, std::int64_t now_ms) {
  const auto it = members_.find(user_id);
  if (it == members_.end() || version_ != kDaveProtocolVersion) return;
  ++counters_.invalid_reports;
  auto& member = it->second;
  forget_member_in_transitions(user_id);
  // The member starts over: out of the group, pending until its new key package is added.
  if (member.add_ref) revoke(*member.add_ref);
  member.key_package.reset();
  if (!in_good_standing(member)) return;
  member.flagged = true;
  if (group_members().empty()) {
    reset_group();
    propose_pending_adds(now_ms);
    return;
  }
  propose_remove(user_id, *member.leaf);
}

// ---- versions and groups ---------------------------------------------------------------------------------

void DaveCall::reset_group() {
  // Pending members keep the proposals they were sent in their local groups: withdraw them, or their next
  // commit would name proposals the new round does not have.
  for (const auto& [user_id, member] : members_) {
    if (in_good_standing(member) || member.seen.empty()) continue;
    send(user_id, dave_op::kProposals,
         dave_wire::revoke_proposals(std::vector<mls::Bytes>(member.seen.begin(), member.seen.end())), true);
  }
  established_ = false;
  epoch_ = 0;
  adds_held_until_ms_.reset();
  leaves_.clear();
  proposals_.clear();
  for (auto& [_, member] : members_) {
    member.leaf.reset();
    member.leaf_node.reset();
    member.flagged = false;
    member.seen.clear();
    member.add_ref.reset();
  }
}

void DaveCall::downgrade(std::int64_t now_ms) {
  version_ = 0;
  reset_group();
  std::set<std::string> dave_members;
  for (auto& [user_id, member] : members_) {
    member.key_package.reset();
    if (member.has_external_sender) dave_members.insert(user_id);
  }
  const auto id = next_transition_id();
  for (const auto& user_id : dave_members)
    send(user_id, dave_op::kPrepareTransition, prepare_transition_json(0, id), false);
  start_transition(id, dave_members, dave_members, now_ms);
}

void DaveCall::upgrade() {
  version_ = kDaveProtocolVersion;
  reset_group();
  for (auto& [user_id, member] : members_) {
    member.key_package.reset();
    if (!member.has_external_sender) send_external_sender(user_id);
    // A new group: each member sends a key package, and the first commit's transition turns E2EE on.
    send(user_id, dave_op::kPrepareEpoch, prepare_epoch_json(kDaveProtocolVersion, 1), false);
  }
}

bool DaveCall::force_downgrade(std::int64_t now_ms) {
  if (forced_plain_) return false;
  forced_plain_ = true;
  if (version_ == kDaveProtocolVersion && !members_.empty()) downgrade(now_ms);
  version_ = 0;
  return true;
}

bool DaveCall::allow_upgrade(std::int64_t) {
  if (!forced_plain_) return false;
  forced_plain_ = false;
  if (!members_.empty() && everyone_can_dave()) upgrade();
  return true;
}

bool DaveCall::new_group() {
  if (version_ != kDaveProtocolVersion || members_.empty()) return false;
  reset_group();
  for (auto& [user_id, member] : members_) {
    member.key_package.reset();
    if (member.has_external_sender)
      send(user_id, dave_op::kPrepareEpoch, prepare_epoch_json(kDaveProtocolVersion, 1), false);
  }
  return true;
}

}  // namespace platformpp::emulator
