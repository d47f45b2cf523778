// Runs SANY's parser on each probe module named on the command line and prints, per file,
// "name<TAB>reject" or "name<TAB>accept<TAB>shape of E" (used by generate_operators.py).
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
    SanySettings settings = new SanySettings(true, false, false, false);
    for (String f : files) {
      String name = f.substring(f.lastIndexOf('/') + 1).replace(".tla", "");
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
      System.out.println(name + "\taccept\t" + shape(e.getBody()));
    }
  }
}
