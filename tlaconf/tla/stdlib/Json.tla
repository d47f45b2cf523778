-------------------------------- MODULE Json ----------------------------------
(* TLC's Json module: resolved only (its operators read and write files      *)
(* inside the model checker; the evaluator does not compute them).           *)
CONSTANTS ToJson(_), ToJsonArray(_), ToJsonObject(_), JsonSerialize(_, _),
          JsonDeserialize(_), ndJsonSerialize(_, _), ndJsonDeserialize(_)
===============================================================================
