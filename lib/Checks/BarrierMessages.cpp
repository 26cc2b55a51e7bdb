//===- BarrierMessages.cpp - The words of a divergent-barrier finding -----===//
//
// See BarrierMessages.h.
//
//===----------------------------------------------------------------------===//

#include "BarrierMessages.h"

#include "Analysis/Program/CallContexts.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace shmem {
namespace divergent {

using cuda::calleeName;

std::string calledName(const CallExpr *Call) {
  std::string Name = calleeName(Call);
  // Through a constant function pointer: the function it reaches.
  if (const FunctionDecl *FD = calleeOf(Call);
      Name.empty() && FD && FD->getDeclName().isIdentifier())
    Name = FD->getName().str();
  return Name;
}

std::string callName(const CallExpr *Call, const ASTContext &Ctx) {
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
      OC && OC->getOperator() == OO_Call && OC->getNumArgs() > 0) {
    std::string Object = text(OC->getArg(0), Ctx, 32);
    if (!Object.empty())
      return "'" + Object + "'";
  }
  return "'" + calledName(Call) + "'";
}

std::string conditionWitness(const BranchInfo &Br, const BarrierSite &Site,
                             const FunctionUniformity &FU, bool Lanes,
                             const ASTContext &Ctx) {
  std::string Who = Lanes ? "the lanes" : "the threads";
  std::string Cond = text(Br.Condition, Ctx);
  const CFGBlock *B = FU.blockOf(Site.S);
  if (Cond.empty() || !B)
    return "some of " + Who + (Lanes ? " of a warp" : " of the block");
  if (isa<SwitchStmt>(Br.Construct))
    return Who + " for which '" + Cond + "' selects this case";
  if (Br.ReachableFrom.size() != 2)
    return "some of " + Who + ", depending on '" + Cond + "'";
  bool FromTrue = Br.ReachableFrom[0].test(B->getBlockID());
  bool FromFalse = Br.ReachableFrom[1].test(B->getBlockID());
  if (FromTrue == FromFalse)
    return "some of " + Who + ", depending on '" + Cond + "'";
  return Who + " for which '" + Cond + "' is " +
         (FromTrue ? "true" : "false");
}

std::string fixFor(Reason R, Scope Sc) {
  switch (R) {
  case Reason::Loop:
    return Sc == Scope::Warp || Sc == Scope::Tile
               ? "loop to a bound that is the same in every lane and guard "
                 "the body with each lane's own condition"
               : "loop to a bound that is the same for the whole block and "
                 "guard the body with each thread's own condition";
  case Reason::Return:
    return "keep the threads alive to the barrier instead of returning "
           "early (guard the work that follows instead)";
  case Reason::Continue:
  case Reason::Break:
  case Reason::Goto:
    return "let every thread reach the barrier instead of jumping past it "
           "(guard the work instead)";
  case Reason::Inside:
    break;
  }
  switch (Sc) {
  case Scope::Warp:
    return "make the mask name exactly the lanes that take the branch (for "
           "example with __ballot_sync(0xffffffff, condition) before it) or "
           "hoist the barrier out of the branch";
  case Scope::Tile:
  case Scope::Group:
    return "hoist the barrier out of the branch so that every thread of "
           "the group reaches it";
  case Scope::Grid:
    return "hoist the barrier out of the branch so that every thread of "
           "the grid reaches it";
  default:
    return "hoist the barrier out of the branch so that every thread of "
           "the block reaches it";
  }
}

const char *skipText(Reason R) {
  switch (R) {
  case Reason::Return:
    return "have returned";
  case Reason::Continue:
  case Reason::Break:
  case Reason::Goto:
    return "jump past it";
  default:
    return "skip it";
  }
}

std::string consequence(Reason R, Scope S) {
  switch (S) {
  case Scope::Warp:
  case Scope::Tile:
  case Scope::Counted:
    return std::string("so the ") + scopeNoun(S) + " may hang";
  default:
    break;
  }
  if (R == Reason::Return)
    return std::string("so it does not synchronise the whole ") +
           scopeNoun(S) + " (undefined behaviour)";
  return std::string("so the ") + scopeNoun(S) +
         " may hang or synchronise at the wrong barrier";
}

const char *scopeNoun(Scope S) {
  switch (S) {
  case Scope::Grid:
    return "grid";
  case Scope::Block:
    return "block";
  case Scope::Warp:
    return "warp";
  case Scope::Counted:
    return "warps";
  case Scope::Tile:
    return "tile";
  default:
    return "group";
  }
}

} // namespace divergent
} // namespace shmem
