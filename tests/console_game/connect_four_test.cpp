// The arena's rules: every way to win, the limits of the board, the draw, and the scripted players' choice.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>

#include "connect_four.hpp"

namespace {

using arena::ConnectFour;
using Disc = ConnectFour::Disc;

// Plays "4435..." (columns 1 to 7) and returns the board.
ConnectFour Played(const std::string& columns) {
  ConnectFour board;
  for (char c : columns)
    REQUIRE(board.Drop(c - '1'));
  return board;
}

}  // namespace

TEST_CASE("discs fall to the lowest free row and players alternate") {
  ConnectFour board;
  CHECK(board.Turn() == 1);
  CHECK(board.ToMove() == Disc::First);
  REQUIRE(board.Drop(3));
  REQUIRE(board.Drop(3));
  CHECK(board.At(5, 3) == Disc::First);
  CHECK(board.At(4, 3) == Disc::Second);
  CHECK(board.At(3, 3) == Disc::None);
  CHECK(board.Turn() == 3);
  CHECK(board.Lines()[5] == ". . . X . . .");
  CHECK(board.Lines()[4] == ". . . O . . .");
}

TEST_CASE("a column takes six discs, the seventh is refused; columns outside the board are refused") {
  ConnectFour board = Played("111111");
  CHECK_FALSE(board.CanDrop(0));
  CHECK_FALSE(board.Drop(0));
  CHECK(board.Turn() == 7);  // nothing changed
  CHECK_FALSE(board.Drop(-1));
  CHECK_FALSE(board.Drop(ConnectFour::kColumns));
  CHECK(board.Drop(ConnectFour::kColumns - 1));
}

TEST_CASE("four in a row wins: down, across and both diagonals; three do not") {
  SUBCASE("down") {
    ConnectFour board = Played("1212121");
    CHECK(board.Winner() == Disc::First);
  }
  SUBCASE("across") {
    ConnectFour board = Played("112233");
    CHECK_FALSE(board.Winner());  // three across
    REQUIRE(board.Drop(3));
    CHECK(board.Winner() == Disc::First);
  }
  SUBCASE("rising diagonal") {
    ConnectFour board = Played("12233434474");
    CHECK(board.Winner() == Disc::First);
  }
  SUBCASE("falling diagonal") {
    ConnectFour board = Played("76655454414");
    CHECK(board.Winner() == Disc::First);
  }
  SUBCASE("the second player wins too") {
    ConnectFour board = Played("71212121");
    CHECK(board.Winner() == Disc::Second);
  }
}

TEST_CASE("no move after the game is over") {
  ConnectFour board = Played("1212121");
  CHECK(board.Over());
  CHECK_FALSE(board.CanDrop(4));
  CHECK_FALSE(board.Drop(4));
}

TEST_CASE("a full board without four in a row is a draw") {
  ConnectFour board = Played("656173566152215676422337377473141445425321");
  CHECK_FALSE(board.Winner());
  CHECK(board.Draw());
  CHECK(board.Over());
  ConnectFour almost = Played("65617356615221567642233737747314144542532");
  CHECK_FALSE(almost.Draw());  // one cell left
}

TEST_CASE("the suggested column wins when it can, blocks when it must, and keeps to the centre") {
  CHECK(ConnectFour().SuggestColumn() == 3);
  // X has three down in column 1 and is to move: it wins.
  CHECK(Played("121212").SuggestColumn() == 0);
  // O to move, X threatens column 1: O blocks.
  CHECK(Played("12121").SuggestColumn() == 0);
  // Two scripted players play a whole game to its end, the same way every time.
  ConnectFour a;
  ConnectFour b;
  while (!a.Over()) {
    REQUIRE(a.Drop(a.SuggestColumn()));
    REQUIRE(b.Drop(b.SuggestColumn()));
  }
  CHECK(a.Lines() == b.Lines());
  CHECK(a.Over());
}
