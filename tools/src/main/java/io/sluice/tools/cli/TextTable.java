package io.sluice.tools.cli;

import java.io.PrintWriter;
import java.util.List;

/** Prints rows as left-aligned columns under a header, for people reading a terminal. */
public final class TextTable {
  private TextTable() {}

  public static void print(PrintWriter out, List<String> header, List<List<String>> rows) {
    int[] widths = new int[header.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = header.get(i).length();
    }
    for (List<String> row : rows) {
      for (int i = 0; i < widths.length; i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    line(out, header, widths);
    for (List<String> row : rows) {
      line(out, row, widths);
    }
  }

  private static void line(PrintWriter out, List<String> cells, int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < widths.length; i++) {
      String cell = cells.get(i);
      line.append(cell);
      if (i < widths.length - 1) {
        line.append(" ".repeat(widths[i] - cell.length() + 2));
      }
    }
    out.println(line);
  }
}
