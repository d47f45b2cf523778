// Runs SANY (parse and semantic analysis, with level checking) on each module file named on
// the command line, in one JVM, and prints per file "file<TAB>reject", "file<TAB>semantic"
// (parsed, then refused by semantic analysis or level checking) or "file<TAB>accept", the
// latter followed by "<TAB>shape" of the definition E when the module has one.
// Used by tests/tla/sany/generate_operators.py and the tests/examples differential.
import java.util.Set;
import tla2sany.drivers.SANY;
import tla2sany.drivers.SanySettings;
import tla2sany.modanalyzer.SpecObj;
import tla2sany.output.SilentSanyOutput;
import tla2sany.semantic.ExprOrOpArgNode;
import tla2sany.semantic.OpApplNode;
import tla2sany.semantic.OpDefNode;
import tla2sany.semantic.StringNode;

public class SanyProbe {
  static String shape(ExprOrOpArgNode n) {
    if (n instanceof StringNode) return "\"" + ((StringNode) n).getRep() + "\"";
    if (!(n instanceof OpApplNode)) return "?" + n.getClass().getSimpleName();
    OpApplNode a = (OpApplNode) n;
    String name = a.getOperator().getName().toString();
    ExprOrOpArgNode[] args = a.getArgs();
    if (args.length == 0) return name;
    StringBuilder b = new StringBuilder("(").append(name);
    for (ExprOrOpArgNode x : args) b.append(' ').append(shape(x));
    return b.append(')').toString();
  }

  public static void main(String[] files) throws Exception {
    boolean levels = System.getProperty("levels", "false").equals("true");
    SanySettings settings = new SanySettings(true, levels, false, false);
    for (String f : files) {
      String name = System.getProperty("full", "false").equals("true") ? f
          : f.substring(f.lastIndexOf('/') + 1).replace(".tla", "");
      SpecObj spec = new SpecObj(f, null);
      boolean ok;
      try {
        ok = SANY.parse(spec, f, new SilentSanyOutput(), settings).code() == 0
            && spec.getErrorLevel() == 0 && spec.getParseErrors().isSuccess();
      } catch (Exception e) {
        ok = false;
      }
      if (!ok || !spec.getSemanticErrors().isSuccess()) {
        System.out.println(name + "\t" + (ok ? "semantic" : "reject"));
        continue;
      }
      OpDefNode e = spec.getRootModule().getOpDef("E");
      System.out.println(name + "\taccept" + (e == null ? "" : "\t" + shape(e.getBody())));
    }
  }
}
