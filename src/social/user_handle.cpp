#include <platformpp/social.hpp>

#include <string>

namespace platformpp {

UserHandle::UserHandle(Data data)
    : id_(data.id),
      username_(std::move(data.username)),
      globalName_(std::move(data.globalName)),
      avatar_(std::move(data.avatar)),
      primaryGuildTag_(std::move(data.primaryGuildTag)),
      status_(data.status),
      gameActivity_(std::move(data.gameActivity)),
      provisional_(data.provisional),
      premiumType_(data.premiumType),
      relationship_(data.relationship) {}

std::string UserHandle::AvatarTypeToString(AvatarType type) {
  switch (type) {
    case AvatarType::Gif:
      return "gif";
    case AvatarType::Webp:
      return "webp";
    case AvatarType::Png:
      return "png";
    case AvatarType::Jpeg:
      return "jpg";
  }
  return "png";
}

std::string UserHandle::AvatarUrl(AvatarType animatedType, AvatarType staticType) const {
  if (avatar_.empty()) {
    // The platform's default avatars for users without a discriminator: one of 6, from the id's timestamp.
    return "https://cdn.discordapp.com/embed/avatars/" + std::to_string((id_ >> 22) % 6) + ".png";
  }
  bool animated = avatar_.rfind("a_", 0) == 0;
  return "https://cdn.discordapp.com/avatars/" + std::to_string(id_) + "/" + avatar_ + "." +
         AvatarTypeToString(animated ? animatedType : staticType);
}

}  // namespace platformpp
