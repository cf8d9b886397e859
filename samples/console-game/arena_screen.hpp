#pragma once
// The arena in a terminal (ncurses): the friends list with their rich presence, the board, the lobby chat,
// the voice call's state, the question of the moment (a friend request, an invite) and the keys, redrawn each
// frame; keys read without blocking. The screen owns the terminal while it lives.

#include <string>

#include "arena_session.hpp"

namespace arena {

class ArenaScreen {
 public:
  ArenaScreen();
  ~ArenaScreen();
  ArenaScreen(const ArenaScreen&) = delete;
  ArenaScreen& operator=(const ArenaScreen&) = delete;

  /// Reads the keys typed since the last frame and acts on them; false once the player quit.
  bool HandleInput(ArenaSession& session);
  void Draw(const ArenaSession& session);
  /// Asks for a line before the session starts (the player's name); empty when the player quit.
  std::string Prompt(const std::string& question);
  /// A line shown under the title until replaced (the application id the second player needs).
  void SetBanner(std::string banner) { banner_ = std::move(banner); }

 private:
  enum class Mode { Keys, Chat, Code };
  void Submit(ArenaSession& session);

  Mode mode_ = Mode::Keys;
  std::string input_;
  std::size_t selectedFriend_ = 0;
  std::string banner_;
};

}  // namespace arena
