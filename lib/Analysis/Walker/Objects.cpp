//===- Walker/Objects.cpp - The C++ object model --------------------------===//
//
// The C++ object model: class objects whose constructors the walk follows
// and the fields they keep (CUB-style `TempStorage &` members), record copies
// and assignments, the objects behind `this` and class-typed parameters.
//
// See KernelWalker.h for the walker as a whole.
//
//===----------------------------------------------------------------------===//

#include "KernelWalker.h"

#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"

#include <functional>

namespace shmem {
namespace walker {

std::optional<Value> KernelWalker::evalRecordCopy(const CXXConstructExpr *CC) {
  const CXXConstructorDecl *Ctor = CC->getConstructor();
  if (!Ctor || !(Ctor->isCopyConstructor() || Ctor->isMoveConstructor()) ||
      CC->getNumArgs() != 1)
    return std::nullopt;
  const Expr *Src = CC->getArg(0)->IgnoreParens();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Src))
    Src = M->getSubExpr()->IgnoreParens();
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(Src))
    if (ICE->getCastKind() == CK_NoOp)
      Src = ICE->getSubExpr()->IgnoreParens();
  if (!Src->isGLValue())
    return std::nullopt;
  Value Out = evalInt(unknown("struct value"));
  Out.From = loadRecord(Src);
  return Out;
}

std::optional<int64_t> KernelWalker::baseOffset(const CastExpr *CE) {
  const CXXRecordDecl *Derived =
      CE->getSubExpr()->getType()->getAsCXXRecordDecl();
  int64_t Off = 0;
  for (const CXXBaseSpecifier *B : CE->path()) {
    const CXXRecordDecl *Base = B->getType()->getAsCXXRecordDecl();
    if (!Derived || !Base || B->isVirtual() || Derived->isInvalidDecl())
      return std::nullopt;
    Off +=
        Ctx.getASTRecordLayout(Derived).getBaseClassOffset(Base).getQuantity();
    Derived = Base;
  }
  return Off;
}

bool KernelWalker::keptField(const FieldDecl *FD) {
  QualType T = FD->getType();
  if (T->isReferenceType())
    return true;
  if (!T->isIntegralOrEnumerationType() && !T->isPointerType())
    return false;
  if (T.isConstQualified())
    return true;
  // Code outside the class could assign a public member, and a derived
  // class a protected one.
  if (FD->getAccess() != AS_private)
    return false;
  auto [It, New] = KeptFields.try_emplace(FD, false);
  if (New)
    It->second = neverModified(FD);
  return It->second;
}

bool KernelWalker::neverModified(const FieldDecl *FD) {
  const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
  if (!RD || RD->hasFriends())
    return false;
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    const FieldDecl *FD;
    bool Found = false;
    const FieldDecl *PatternFD = nullptr;
    bool names(const Expr *E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *ME = dyn_cast<MemberExpr>(E))
        return ME->getMemberDecl() == FD || ME->getMemberDecl() == PatternFD;
      // In a template, a member of a dependent object is found by name.
      if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(E))
        return DM->getMember() == FD->getDeclName();
      return false;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      Found |= B->isAssignmentOp() && names(B->getLHS());
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      Found |= (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
               names(U->getSubExpr());
      return !Found;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
      Found |=
          C->isAssignmentOp() && C->getNumArgs() > 0 && names(C->getArg(0));
      return !Found;
    }
    // A member bound to a non-const reference (passed to `int &`).
    bool boundToReference(const FunctionDecl *F, unsigned NumArgs,
                          const Expr *const *Args) {
      for (unsigned I = 0; I < NumArgs; ++I)
        if (mayWriteArgument(F, I) && names(Args[I]))
          return true;
      return false;
    }
    bool VisitCallExpr(CallExpr *C) {
      if (!isa<CXXOperatorCallExpr>(C))
        Found |= boundToReference(calleeOf(C), C->getNumArgs(), C->getArgs());
      return !Found;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      Found |=
          boundToReference(C->getConstructor(), C->getNumArgs(), C->getArgs());
      return !Found;
    }
  } F;
  F.FD = FD;
  // Every function of the class (and of classes nested in it); a
  // constructor's initialisers are where the value is set, so only its
  // body counts. A template's pattern stands for its instantiations.
  std::function<void(const CXXRecordDecl *)> Scan =
      [&](const CXXRecordDecl *C) {
        for (const Decl *D : C->decls()) {
          if (F.Found)
            return;
          const Decl *Inner = D;
          if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
            Inner = FT->getTemplatedDecl();
          if (const auto *M = dyn_cast<FunctionDecl>(Inner)) {
            // A copy or move assignment the compiler writes replaces the
            // whole object; the walk follows that where it happens
            // (ObjectState::Replaced), so it does not make every field
            // of the class changeable.
            if (M->isImplicit() || M->isDefaulted())
              continue;
            if (Stmt *Body = M->getBody())
              F.TraverseStmt(Body);
          } else if (const auto *Nested = dyn_cast<CXXRecordDecl>(Inner)) {
            if (Nested->isThisDeclarationADefinition())
              Scan(Nested);
          }
        }
      };
  Scan(RD);
  if (const CXXRecordDecl *Pattern = RD->getTemplateInstantiationPattern()) {
    for (const NamedDecl *ND : Pattern->lookup(FD->getDeclName()))
      if (const auto *PF = dyn_cast<FieldDecl>(ND))
        F.PatternFD = PF;
    Scan(Pattern);
  }
  return !F.Found;
}

const CXXConstructorDecl *
KernelWalker::followedConstructor(const CXXConstructExpr *CC) {
  const CXXConstructorDecl *Ctor = CC->getConstructor();
  const FunctionDecl *Def = nullptr;
  if (!Ctor || Ctor->isCopyOrMoveConstructor() || !Ctor->hasBody(Def) || !Def ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      !mayEnter(Def))
    return nullptr;
  return cast<CXXConstructorDecl>(Def);
}

bool KernelWalker::construct(const CXXConstructExpr *CC) {
  const CXXConstructorDecl *CD = followedConstructor(CC);
  if (!CD) {
    // Not followed here (too deep, say): an object this call made
    // elsewhere in the walk is not the one it makes now.
    Constructed.erase(CC);
    return false;
  }
  auto Obj = std::make_shared<ObjectState>();
  Obj->Born = Epoch;
  runConstructor(Obj, CC, CD);
  Constructed[CC] = std::move(Obj);
  return true;
}

void KernelWalker::runConstructor(const ObjectRef &Obj,
                                  const CXXConstructExpr *CC,
                                  const CXXConstructorDecl *CD) {
  std::vector<ObjectRef> ArgObjects;
  std::vector<Value> Args = callArguments(
      llvm::ArrayRef(CC->getArgs(), CC->getNumArgs()), CD, ArgObjects);
  bool SavedRec = Recording;
  unsigned SavedSeq = Seq;
  Recording = false;
  Env Saved = enterCallee(CD, std::move(Args), ArgObjects);
  Inlining.push_back(CD);
  ThisStack.push_back({Obj, std::nullopt});
  for (const CXXCtorInitializer *I : CD->inits()) {
    const Expr *Init = I->getInit();
    if (!Init)
      continue;
    const FieldDecl *FD = I->getMember();
    if (!FD) {
      // A base (or delegated-to) constructor: its fields are this
      // object's.
      const auto *BaseCC = dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit());
      if (const CXXConstructorDecl *BaseCD =
              BaseCC ? followedConstructor(BaseCC) : nullptr)
        runConstructor(Obj, BaseCC, BaseCD);
      else
        eval(Init);
      continue;
    }
    if (!keptField(FD)) {
      eval(Init);
      continue;
    }
    if (FD->getType()->isReferenceType()) {
      Obj->Fields[FD] = Value::pointer(evalAddress(Init));
      continue;
    }
    Value V = eval(Init);
    if (!V.IsPointer)
      V.Int = toType(std::move(V.Int), FD->getType());
    Obj->Fields[FD] = std::move(V);
  }
  ThisStack.pop_back();
  Inlining.pop_back();
  Vars = std::move(Saved);
  Recording = SavedRec;
  Seq = SavedSeq;
}

KernelWalker::ObjectRef KernelWalker::namedObject(const Expr *E) {
  // `this` and `*this` (assigned as a whole by a method).
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(E))
    return ThisStack.empty() ? nullptr : ThisStack.back().Obj;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
      auto It = Objects.find(V);
      return It == Objects.end() ? nullptr : It->second;
    }
    return nullptr;
  }
  if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
    // An implicit copy holds what the original holds.
    if (CC->getConstructor() &&
        CC->getConstructor()->isCopyOrMoveConstructor() &&
        !CC->getConstructor()->isUserProvided() && CC->getNumArgs() == 1)
      return knownObject(CC->getArg(0));
    auto It = Constructed.find(CC);
    return It == Constructed.end() ? nullptr : It->second;
  }
  return nullptr;
}

void KernelWalker::forgetObject(const Expr *E) {
  if (isRecordOrRef(E->getType()))
    if (ObjectRef Obj = knownObject(E)) {
      if (!Obj->Replaced)
        Effects.ObjectBorn = std::min(Effects.ObjectBorn, Obj->Born);
      Obj->Replaced = true;
    }
}

void KernelWalker::bindParamObjects(const FunctionDecl *Def,
                                    const std::vector<ObjectRef> &ArgObjects) {
  for (unsigned I = 0; I < ArgObjects.size() && I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    if (!isRecordOrRef(P->getType()))
      continue;
    if (ArgObjects[I])
      Objects[P] = ArgObjects[I];
    else
      Objects.erase(P);
  }
}

const Value *KernelWalker::keptValue(const ObjectRef &Obj,
                                     const MemberExpr *ME) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!Obj || !FD || !keptField(FD))
    return nullptr;
  auto It = Obj->Fields.find(FD);
  return It == Obj->Fields.end() ? nullptr : &It->second;
}

KernelWalker::ObjectRef KernelWalker::memberObject(const MemberExpr *ME) {
  if (ThisStack.empty() && Objects.empty())
    return nullptr;
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  if (ME->isArrow() ? isa<CXXThisExpr>(Base) : isa<DeclRefExpr>(Base))
    return knownObject(Base);
  return nullptr;
}

Origins KernelWalker::loadRecord(const Expr *Src) {
  if (const VarDecl *R = recordRoot(Src))
    return RecordFrom[R];
  PointerValue P = evalAddress(Src);
  if (P.isShared())
    return originOf(recordAccess(Src, P, AccessKind::Load, Src->getType()),
                    false);
  if (P.isGlobal())
    return originOf(recordGlobal(Src, P, AccessKind::Load, Src->getType()),
                    true);
  return {};
}

std::optional<Value>
KernelWalker::evalRecordAssign(const CXXOperatorCallExpr *OC) {
  if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
    return std::nullopt;
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
  if (!MD)
    return std::nullopt;
  // A trivial copy, or any assignment of the toolkit's half-precision
  // classes (`__half2::operator=(const __half2 &)` is user-provided, and
  // `__half::operator=(float)` converts): both write the whole object.
  bool Trivial =
      (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
      MD->isTrivial();
  if (!Trivial && !cuda::isHalfPrecisionClass(MD->getParent()))
    return std::nullopt;
  const Expr *Src = OC->getArg(1)->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Src))
    Src = M->getSubExpr()->IgnoreParenImpCasts();
  Origins From;
  if (Src->isGLValue() && Src->getType()->isRecordType())
    From = loadRecord(Src);
  else if (Src->isGLValue())
    From = eval(OC->getArg(1)).From;
  else
    From = eval(Src).From;
  const Expr *Dst = OC->getArg(0);
  if (const VarDecl *R = recordRoot(Dst)) {
    // A whole local struct assigned (v = in4[i]); a member assigned
    // (v.x = ...) may keep the other members' data.
    if (isa<DeclRefExpr>(Dst->IgnoreParenImpCasts()))
      RecordFrom[R] = From;
    else
      addOrigins(RecordFrom[R], From);
  } else {
    PointerValue P = evalAddress(Dst);
    if (P.isShared())
      recordAccess(Dst, P, AccessKind::Store, Dst->getType(), std::nullopt,
                   From);
    else if (P.isGlobal())
      recordGlobal(Dst, P, AccessKind::Store, Dst->getType(), From);
  }
  Value Out = evalInt(unknown("struct value"));
  Out.From = std::move(From);
  return Out;
}

const VarDecl *KernelWalker::recordRoot(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow())
      return nullptr;
    E = ME->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (V && V->isLocalVarDeclOrParm() && V->getType()->isRecordType())
    return V;
  return nullptr;
}

} // namespace walker
} // namespace shmem
