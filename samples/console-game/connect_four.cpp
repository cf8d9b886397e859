#include "connect_four.hpp"

namespace arena {

bool ConnectFour::CanDrop(int column) const {
  return !Over() && column >= 0 && column < kColumns && cells_[0][column] == Disc::None;
}

bool ConnectFour::Drop(int column) {
  if (!CanDrop(column)) return false;
  int row = kRows - 1;
  while (cells_[row][column] != Disc::None)
    --row;
  cells_[row][column] = ToMove();
  ++moves_;
  if (FourFrom(row, column)) winner_ = cells_[row][column];
  return true;
}

bool ConnectFour::FourFrom(int row, int column) const {
  const Disc disc = cells_[row][column];
  constexpr int kDirections[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  for (const auto& direction : kDirections) {
    int count = 1;
    for (int sign : {1, -1}) {
      int r = row + sign * direction[0];
      int c = column + sign * direction[1];
      while (r >= 0 && r < kRows && c >= 0 && c < kColumns && cells_[r][c] == disc) {
        ++count;
        r += sign * direction[0];
        c += sign * direction[1];
      }
    }
    if (count >= 4) return true;
  }
  return false;
}

std::optional<int> ConnectFour::WinningColumnFor(Disc disc) const {
  for (int column = 0; column < kColumns; ++column) {
    if (!CanDrop(column)) continue;
    // `disc` lands in this column whoever's turn it is: the check looks one move ahead for either player.
    ConnectFour trial = *this;
    int row = kRows - 1;
    while (trial.cells_[row][column] != Disc::None)
      --row;
    trial.cells_[row][column] = disc;
    if (trial.FourFrom(row, column)) return column;
  }
  return std::nullopt;
}

int ConnectFour::SuggestColumn() const {
  const Disc self = ToMove();
  const Disc other = self == Disc::First ? Disc::Second : Disc::First;
  if (auto win = WinningColumnFor(self)) return *win;
  if (auto block = WinningColumnFor(other)) return *block;
  constexpr int kByCentre[kColumns] = {3, 2, 4, 1, 5, 0, 6};
  int fallback = -1;
  for (int column : kByCentre) {
    if (!CanDrop(column)) continue;
    if (fallback < 0) fallback = column;
    ConnectFour trial = *this;
    trial.Drop(column);
    if (!trial.WinningColumnFor(other)) return column;
  }
  return fallback;
}

std::array<std::string, ConnectFour::kRows> ConnectFour::Lines() const {
  std::array<std::string, kRows> lines;
  for (int row = 0; row < kRows; ++row) {
    for (int column = 0; column < kColumns; ++column) {
      if (column > 0) lines[row] += ' ';
      switch (cells_[row][column]) {
        case Disc::None:
          lines[row] += '.';
          break;
        case Disc::First:
          lines[row] += 'X';
          break;
        case Disc::Second:
          lines[row] += 'O';
          break;
      }
    }
  }
  return lines;
}

}  // namespace arena
