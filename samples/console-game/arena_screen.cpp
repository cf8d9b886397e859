#include "arena_screen.hpp"

#include <curses.h>

#include <algorithm>
#include <csignal>
#include <string_view>
#include <vector>

namespace arena {
namespace {

constexpr std::size_t kMaxInput = 200;
constexpr int kFriendsWidth = 36;
constexpr int kKeyEscape = 27;
constexpr int kKeyBackspaceAscii = 127;
constexpr int kKeyBackspaceCtrlH = 8;

// Prints `text` at (row, column), cut at the screen's right edge.
void Put(int row, int column, std::string_view text, int width = -1) {
  if (row < 0 || row >= LINES || column >= COLS) return;
  int room = COLS - column;
  if (width >= 0) room = std::min(room, width);
  if (room <= 0) return;
  mvaddnstr(row, column, text.data(), static_cast<int>(std::min<std::size_t>(text.size(), room)));
}

// `text` in lines of at most `width` characters, broken at spaces where there are some.
std::vector<std::string> Wrap(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::string_view rest = text;
  while (rest.size() > width) {
    std::size_t cut = rest.rfind(' ', width);
    if (cut == std::string_view::npos || cut == 0) cut = width;
    lines.emplace_back(rest.substr(0, cut));
    rest.remove_prefix(cut);
    while (!rest.empty() && rest.front() == ' ')
      rest.remove_prefix(1);
  }
  lines.emplace_back(rest);
  return lines;
}

bool Printable(int key) {
  return key >= 32 && key < 127;
}

}  // namespace

ArenaScreen::ArenaScreen() {
  initscr();
  cbreak();  // Ctrl-C still raises SIGINT: the game's handler quits cleanly
  noecho();
  keypad(stdscr, TRUE);
  set_escdelay(25);  // Esc cancels at once, not after ncurses' default second
  timeout(0);
  curs_set(0);
}

ArenaScreen::~ArenaScreen() {
  endwin();
}

std::string ArenaScreen::Prompt(const std::string& question) {
  std::string answer;
  timeout(100);
  for (;;) {
    erase();
    Put(0, 0, " platformpp arena");
    Put(2, 2, question + answer + "_");
    Put(4, 2, "Enter: go on   Esc: quit");
    refresh();
    int key = getch();
    if (key == ERR) continue;
    if (key == kKeyEscape) return {};
    if (key == '\n' || key == KEY_ENTER) {
      if (!answer.empty()) break;
      continue;
    }
    if ((key == KEY_BACKSPACE || key == kKeyBackspaceAscii || key == kKeyBackspaceCtrlH) && !answer.empty()) {
      answer.pop_back();
    } else if (Printable(key) && answer.size() < 32) {
      answer += static_cast<char>(key);
    }
  }
  timeout(0);
  return answer;
}

bool ArenaScreen::HandleInput(ArenaSession& session) {
  for (int key = getch(); key != ERR; key = getch()) {
    if (mode_ != Mode::Keys) {
      if (key == kKeyEscape) {
        mode_ = Mode::Keys;
        input_.clear();
      } else if (key == '\n' || key == KEY_ENTER) {
        Submit(session);
      } else if (key == KEY_BACKSPACE || key == kKeyBackspaceAscii || key == kKeyBackspaceCtrlH) {
        if (!input_.empty()) input_.pop_back();
      } else if (Printable(key) && input_.size() < kMaxInput) {
        input_ += static_cast<char>(key);
      }
      continue;
    }
    auto friends = session.Friends();
    switch (key) {
      case 'q':
      case 'Q':
        return false;
      case 'c':
        session.CreateLobby();
        break;
      case 'j':
        mode_ = Mode::Code;
        break;
      case 't':
      case '\n':
      case KEY_ENTER:
        mode_ = Mode::Chat;
        break;
      case 'l':
        session.LeaveLobby();
        break;
      case 'r':
        session.Rematch();
        break;
      case 'f':
        session.BefriendOpponent();
        break;
      case 'i':
        if (selectedFriend_ < friends.size()) session.InviteFriend(friends[selectedFriend_].id);
        break;
      case 'y':
        session.Answer(true);
        break;
      case 'n':
        session.Answer(false);
        break;
      case 'v':
        session.ToggleVoice();
        break;
      case KEY_UP:
        if (selectedFriend_ > 0) --selectedFriend_;
        break;
      case KEY_DOWN:
        if (selectedFriend_ + 1 < friends.size()) ++selectedFriend_;
        break;
      default:
        if (key >= '1' && key <= '0' + ConnectFour::kColumns) session.Play(key - '1');
        break;
    }
  }
  return true;
}

void ArenaScreen::Submit(ArenaSession& session) {
  if (mode_ == Mode::Chat) session.SendChat(input_);
  if (mode_ == Mode::Code) session.JoinLobby(input_);
  input_.clear();
  mode_ = Mode::Keys;
}

void ArenaScreen::Draw(const ArenaSession& session) {
  erase();
  if (COLS < 80 || LINES < 24) {
    Put(0, 0, "The arena needs a terminal of at least 80 x 24. q quits.");
    refresh();
    return;
  }
  std::string title = " platformpp arena | " + session.Name() + " | " + session.StatusText();
  if (!session.LobbyCode().empty()) {
    title += " | Lobby " + session.LobbyCode() + " (" + std::to_string(session.MemberCount()) + "/2)";
  }
  attron(A_REVERSE);
  Put(0, 0, title + std::string(std::max<int>(0, COLS - static_cast<int>(title.size())), ' '));
  attroff(A_REVERSE);
  Put(1, 1, banner_);

  if (session.GetPhase() == ArenaSession::Phase::Failed) {
    Put(3, 2, "The arena cannot go on:");
    int row = 4;
    for (const auto& line : Wrap(session.Failure(), static_cast<std::size_t>(COLS - 6)))
      Put(row++, 4, line);
    Put(row + 1, 2, "q quits.");
    refresh();
    return;
  }

  // Friends, with what they do.
  auto friends = session.Friends();
  if (selectedFriend_ >= friends.size()) selectedFriend_ = friends.empty() ? 0 : friends.size() - 1;
  Put(2, 1, "Friends (up/down, i: invite)");
  if (friends.empty()) Put(3, 3, "none yet: f befriends your opponent", kFriendsWidth - 3);
  for (std::size_t i = 0; i < friends.size() && i < 9; ++i) {
    const auto& line = friends[i];
    std::string text = (i == selectedFriend_ ? "> " : "  ") + line.name + "  " + line.presence;
    if (line.joinable) text += " [join]";
    Put(3 + static_cast<int>(i), 1, text, kFriendsWidth - 1);
  }

  // The board.
  const int left = kFriendsWidth + 2;
  const auto& board = session.Board();
  Put(2, left, "Connect Four, game " + std::to_string(session.GameNumber()));
  Put(3, left, "  1 2 3 4 5 6 7");
  auto lines = board.Lines();
  for (int row = 0; row < ConnectFour::kRows; ++row)
    Put(4 + row, left, " |" + lines[row] + "|");
  Put(4 + ConnectFour::kRows, left, " +-------------+");
  if (auto first = session.FirstPlayer()) {
    std::string players = "X: " + session.NameOf(*first);
    if (auto second = session.SecondPlayer()) players += "   O: " + session.NameOf(*second);
    Put(11, left, players);
  }
  attron(A_BOLD);
  Put(12, left, session.GameLine());
  attroff(A_BOLD);

  // The lobby chat: the newest lines that fit.
  const int chatTop = 14;
  const int chatBottom = LINES - 6;
  Put(13, 1, "Chat (t: say something)");
  const auto& chat = session.Chat();
  const int rows = chatBottom - chatTop + 1;
  const std::size_t first = chat.size() > static_cast<std::size_t>(rows) ? chat.size() - rows : 0;
  int row = chatTop;
  for (std::size_t i = first; i < chat.size(); ++i)
    Put(row++, 3, chat[i].author + ": " + chat[i].text);

  std::string question = session.Question();
  if (!question.empty()) {
    attron(A_BOLD);
    Put(LINES - 5, 1, question);
    attroff(A_BOLD);
  } else {
    Put(LINES - 5, 1, session.Notice());
  }
  Put(LINES - 4, 1, session.VoiceLine());
  if (mode_ == Mode::Chat) Put(LINES - 3, 1, "Say: " + input_ + "_  (Enter sends, Esc cancels)");
  if (mode_ == Mode::Code) Put(LINES - 3, 1, "Lobby code: " + input_ + "_  (Enter joins, Esc cancels)");
  Put(LINES - 2, 1, "c create lobby  j join by code  1-7 drop a disc  r rematch  t chat  l leave lobby");
  Put(LINES - 1, 1, "f befriend opponent  i invite friend  y/n answer  v voice on/off  q quit");
  refresh();
}

}  // namespace arena
