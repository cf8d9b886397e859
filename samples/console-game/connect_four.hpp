#pragma once
// Connect Four, the arena's game: two players drop discs into a 7-column, 6-row board in turn; four in a row
// (across, down or diagonal) wins, a full board is a draw. Pure rules, no SDK: both players' games apply the
// same moves in the same order (the lobby's message stream) and so hold the same board.

#include <array>
#include <optional>
#include <string>

namespace arena {

class ConnectFour {
 public:
  static constexpr int kColumns = 7;
  static constexpr int kRows = 6;
  enum class Disc : char { None = 0, First = 1, Second = 2 };

  /// The disc at `row` (0 = top) and `column` (0 = left).
  Disc At(int row, int column) const { return cells_[row][column]; }
  /// The number of the move about to be played, from 1.
  int Turn() const { return moves_ + 1; }
  /// Whose move it is (First opens every game).
  Disc ToMove() const { return moves_ % 2 == 0 ? Disc::First : Disc::Second; }
  bool CanDrop(int column) const;
  /// Plays the current player's disc into `column`; false (nothing changes) when the column is full, out of
  /// range, or the game is over.
  bool Drop(int column);
  /// The winner once four discs of one player are in a row.
  std::optional<Disc> Winner() const { return winner_; }
  bool Draw() const { return !winner_ && moves_ == kColumns * kRows; }
  bool Over() const { return winner_.has_value() || Draw(); }

  /// A column for the player to move: one that wins now, else one that stops the other from winning on the
  /// next move, else the free column nearest the centre that does not hand the other a win right above it.
  /// The scripted players use it; deterministic, so a scripted game always ends the same way.
  int SuggestColumn() const;

  /// Rows of text, top first: "." empty, "X" first player, "O" second.
  std::array<std::string, kRows> Lines() const;

 private:
  bool FourFrom(int row, int column) const;
  std::optional<int> WinningColumnFor(Disc disc) const;

  std::array<std::array<Disc, kColumns>, kRows> cells_{};
  int moves_ = 0;
  std::optional<Disc> winner_;
};

}  // namespace arena
