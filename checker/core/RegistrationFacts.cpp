//===- RegistrationFacts.cpp ----------------------------------------------===//

#include "tensorplace/checker/RegistrationFacts.h"
#include "tensorplace/checker/TorchModel.h"

using namespace clang;

namespace tensorplace {

using WriteKind = ModuleInventory::WriteKind;
using FieldWrite = ModuleInventory::FieldWrite;

RegistrationFacts::RegistrationFacts(const ModuleInventory &Inventory,
                                     const ValueIdentity &Identity) {
  findHelpers(Inventory);
  findRegisteredMembers(Inventory, Identity);
  // Modules created right inside a registration: registered late, not never.
  for (const ModuleInventory::RegistrationCall &R :
       Inventory.registrationCalls())
    if (R.ConstructsModule)
      findCreationsInRegistration(Inventory, R.Call);
}

bool RegistrationFacts::registers(const FunctionDecl *F) const {
  return F && RegisteringFunctions.count(canonicalFunction(F));
}

/// Registration helpers: functions that pass a parameter on to a
/// registration (directly or through another helper), and functions that
/// register at all (their result may be the registered tensor).
void RegistrationFacts::findHelpers(const ModuleInventory &Inventory) {
  auto MarkParams = [&](const Decls &Values, const FunctionDecl *Owner) {
    bool Changed = false;
    for (const ValueDecl *D : Values) {
      const auto *P = dyn_cast<ParmVarDecl>(D);
      if (!P || !Owner || P->getDeclContext() != Owner)
        continue;
      auto &Params = HelperParams[canonicalFunction(Owner)];
      unsigned Index = P->getFunctionScopeIndex();
      if (!llvm::is_contained(Params, Index)) {
        Params.push_back(Index);
        Changed = true;
      }
    }
    return Changed;
  };
  for (const ModuleInventory::RegistrationSite &Site :
       Inventory.registrationSites()) {
    MarkParams(Site.Arguments, Site.Owner);
    for (const FunctionDecl *F : {Site.Function, Site.Owner})
      if (F)
        RegisteringFunctions.insert(canonicalFunction(F));
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const ModuleInventory::CallSite &Site : Inventory.callSites())
      for (const FunctionDecl *Callee : Site.Callees) {
        if (RegisteringFunctions.count(Callee) &&
            RegisteringFunctions.insert(canonicalFunction(Site.Caller)).second)
          Changed = true;
        auto It = HelperParams.find(Callee);
        if (It == HelperParams.end())
          continue;
        llvm::SmallVector<unsigned, 2> Indices = It->second;
        for (unsigned Index : Indices)
          if (Index < Site.Arguments.size())
            Changed |= MarkParams(Site.Arguments[Index], Site.Owner);
      }
  }
}

void RegistrationFacts::forEachRegisteredArgument(
    const ModuleInventory &Inventory,
    llvm::function_ref<void(const Decls &, SourceLocation)> Visit) const {
  for (const ModuleInventory::RegistrationSite &Site :
       Inventory.registrationSites())
    Visit(Site.Arguments, Site.Call->getBeginLoc());
  for (const ModuleInventory::CallSite &Site : Inventory.callSites())
    for (const FunctionDecl *Callee : Site.Callees) {
      auto It = HelperParams.find(Callee);
      if (It == HelperParams.end())
        continue;
      for (unsigned Index : It->second)
        if (Index < Site.Arguments.size())
          Visit(Site.Arguments[Index], Site.Call->getBeginLoc());
    }
}

bool RegistrationFacts::containsRegistration(const ModuleInventory &Inventory,
                                             const Stmt *S) const {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (Inventory.isRegistrationSite(Call))
      return true;
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (RegisteringFunctions.count(canonicalFunction(Callee)))
        return true;
  }
  for (const Stmt *Child : S->children())
    if (containsRegistration(Inventory, Child))
      return true;
  return false;
}

/// What a container module is built from: the origins of the parts of S
/// that are modules. A size or a name computed from another module
/// (make_head(backbone->out_channels())) puts nothing in the container.
static void moduleOrigins(const ValueIdentity &Identity, const Stmt *S,
                          ValueIdentity::Decls &Out) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return;
  QualType T = E->getType();
  if (!T.isNull())
    T = T.getNonReferenceType();
  if (!T.isNull() && !T->isDependentType() && !isModuleHandleLikeType(T) &&
      !isModuleValueLikeType(T) && !pointedModuleClass(T) &&
      !isModuleClass(recordOf(T)))
    return;
  if (isa<MemberExpr>(E) || isa<DeclRefExpr>(E)) {
    Identity.origins(E, Out);
    return;
  }
  for (const Stmt *Child : E->children())
    moduleOrigins(Identity, Child, Out);
}

void RegistrationFacts::findRegisteredMembers(const ModuleInventory &Inventory,
                                              const ValueIdentity &Identity) {
  // Everything passed to a registration, or to a helper parameter that
  // reaches one.
  forEachRegisteredArgument(Inventory,
                            [&](const Decls &Values, SourceLocation Where) {
                              for (const ValueDecl *D : Values)
                                if (const auto *Field = dyn_cast<FieldDecl>(D))
                                  Registered.try_emplace(Field, Where);
                            });
  for (const auto &Entry : Inventory.containerInsertedFields())
    Registered.try_emplace(Entry.first, Entry.second);

  // t_ = register_buffer(...), fc_(register_module(...)), v_.push_back(
  // register_parameter(...)), w_ = my_helper(...).
  llvm::DenseMap<const FieldDecl *, Decls> ContainerChildren;
  for (const auto &Entry : Inventory.allWrites())
    for (const FieldWrite &W : Entry.second) {
      if (containsRegistration(Inventory, W.Value)) {
        Registered.try_emplace(Entry.first, W.Loc);
        RegisteringWrites.insert(W.Value);
      }
      const CXXRecordDecl *Held = heldModuleClass(W.Field->getType());
      if (Held && isContainerModule(Held) && W.Value)
        moduleOrigins(Identity, W.Value, ContainerChildren[Entry.first]);
    }

  // auto pe = ...; register_buffer("pe", pe); pe_ = pe: the member shares
  // the registered tensor. So does a member given a local that holds what a
  // registration returned. Only tensors and modules are shared so: a device
  // or a size passed along says nothing about another member.
  llvm::DenseSet<const ValueDecl *> RegisteredLocals;
  forEachRegisteredArgument(
      Inventory, [&](const Decls &Values, SourceLocation) {
        for (const ValueDecl *D : Values)
          if (isa<VarDecl>(D) && (isTensorLikeType(D->getType()) ||
                                  isModuleHandleLikeType(D->getType())))
            RegisteredLocals.insert(D);
      });
  for (const auto &Local : Inventory.localInits())
    if (containsRegistration(Inventory, Local.second))
      RegisteredLocals.insert(Local.first);
  // auto b = Block(); list_->push_back(b); blocks_.push_back(b): the
  // container module registers b, which blocks_ shares.
  for (const VarDecl *Local : Inventory.containerInsertedLocals())
    RegisteredLocals.insert(Local);
  for (const auto &Entry : Inventory.allWrites())
    for (const FieldWrite &W : Entry.second) {
      Decls From;
      // v_.push_back(x) stores x.
      const auto *Insert = dyn_cast_or_null<CallExpr>(W.Value);
      if (W.Kind == WriteKind::ElementInsert && Insert &&
          isElementInsertName(calleeName(Insert)))
        for (const Expr *Arg : Insert->arguments())
          Identity.identity(Arg, From);
      else
        Identity.identity(W.Value, From);
      if (llvm::any_of(From, [&](const ValueDecl *D) {
            return RegisteredLocals.count(D);
          }))
        Registered.try_emplace(Entry.first, W.Loc);
    }

  for (const auto &Entry : ContainerChildren)
    for (const ValueDecl *D : Entry.second)
      if (const auto *Field = dyn_cast<FieldDecl>(D))
        if (Field->getCanonicalDecl() != Entry.first->getCanonicalDecl())
          ListedInContainer.try_emplace(Field->getCanonicalDecl(), Entry.first);
  // seq_ = Sequential(a_, b_); register_module("seq", seq_): a_ and b_ are
  // registered through seq_.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &Entry : ContainerChildren) {
      auto Container = Registered.find(Entry.first);
      if (Container == Registered.end())
        continue;
      SourceLocation Where = Container->second;
      for (const ValueDecl *D : Entry.second)
        if (const auto *Field = dyn_cast<FieldDecl>(D))
          Changed |= Registered.try_emplace(Field, Where).second;
    }
  }
}

void RegistrationFacts::findCreationsInRegistration(
    const ModuleInventory &Inventory, const Stmt *S) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    if (Inventory.isModuleCreation(E))
      CreationsInRegistration.insert(E);
  for (const Stmt *Child : S->children())
    findCreationsInRegistration(Inventory, Child);
}

} // namespace tensorplace
