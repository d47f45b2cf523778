-------------------------------- MODULE Json --------------------------------
(* A stand-in with the operator names of CommunityModules' Json: the bodies  *)
(* cannot be evaluated, so a test passes only if the override is used.       *)
ndJsonDeserialize(absoluteFilename) == CHOOSE val : TRUE
JsonDeserialize(absoluteFilename) == CHOOSE val : TRUE
=============================================================================
