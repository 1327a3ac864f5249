/*
 * Copyright 2019 The Starlark in Rust Authors.
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

use quote::quote;

use crate::util::GenericsUtil;
use crate::v_lifetime::find_v_lifetime;
use crate::vtable::vtable_has_field_name;

pub(crate) fn derive_starlark_value(
    attr: proc_macro::TokenStream,
    input: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    let attr = syn::parse_macro_input!(attr as StarlarkValueAttrs);
    let input = syn::parse_macro_input!(input as syn::ItemImpl);
    match derive_starlark_value_impl(attr, input) {
        Ok(r#gen) => r#gen.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

struct StarlarkValueAttrs {
    typ: syn::Expr,
    /// Implement `UnpackValue` for `&T`.
    /// Note we are implementing `UnpackValue` for `&T` instead of `T`,
    /// therefore we use proc macro on impl trait instead of `#[derive]` on struct.
    unpack_value: bool,
    /// Implement `StarlarkTypeRepr` for `&T`.
    starlark_type_repr: bool,
    /// Skip pagable vtable registration entirely. For types whose frozen canonical
    /// form handles serialization (e.g. unfrozen types with `type Canonical = FrozenFoo`).
    skip_vtable: bool,
    /// Register only the typing-side vtable (`TyStarlarkValueVTable`); skip the
    /// pagable `AValue` vtable that would require `T: StarlarkPagable + Sync`.
    ///
    /// Use this for types that have no frozen counterpart.
    ty_vtable_no_freeze: bool,
}

impl syn::parse::Parse for StarlarkValueAttrs {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        input.parse::<syn::Token![type]>()?;
        input.parse::<syn::Token![=]>()?;
        let typ = input.parse::<syn::Expr>()?;
        let mut attrs = StarlarkValueAttrs {
            typ,
            unpack_value: false,
            starlark_type_repr: false,
            skip_vtable: false,
            ty_vtable_no_freeze: false,
        };

        loop {
            if input.is_empty() {
                break;
            }
            input.parse::<syn::Token![,]>()?;
            if input.is_empty() {
                // Allow trailing comma.
                break;
            }
            let name = input.parse::<syn::Ident>()?;
            if name == "UnpackValue" {
                attrs.unpack_value = true;
            } else if name == "StarlarkTypeRepr" {
                attrs.starlark_type_repr = true;
            } else if name == "skip_vtable" {
                attrs.skip_vtable = true;
            } else if name == "ty_vtable_no_freeze" {
                attrs.ty_vtable_no_freeze = true;
            } else {
                return Err(syn::Error::new_spanned(
                    name,
                    "unknown attribute, allowed attributes are `UnpackValue`, `StarlarkTypeRepr`, `skip_vtable`, `ty_vtable_no_freeze`",
                ));
            }
        }

        Ok(attrs)
    }
}

struct ImplStarlarkValue {
    input: syn::ItemImpl,
    lifetime_param: syn::Lifetime,
    attrs: StarlarkValueAttrs,
}

fn is_impl_starlark_value(
    input: syn::ItemImpl,
    attrs: StarlarkValueAttrs,
) -> syn::Result<ImplStarlarkValue> {
    let err = "expected `impl StarlarkValue for ...`";
    let Some((_, path, _)) = &input.trait_ else {
        return Err(syn::Error::new_spanned(input, err));
    };
    let Some(last) = path.segments.last() else {
        return Err(syn::Error::new_spanned(path, err));
    };
    if last.ident != "StarlarkValue" {
        return Err(syn::Error::new_spanned(&last.ident, err));
    }
    let lifetime_param = match find_v_lifetime(&input.generics)? {
        Some(lt) => lt.clone(),
        None => {
            return Err(syn::Error::new_spanned(
                input,
                "expected a lifetime parameter",
            ));
        }
    };
    Ok(ImplStarlarkValue {
        input,
        lifetime_param,
        attrs,
    })
}

impl ImplStarlarkValue {
    /// Impl `UnpackValue for &T`.
    fn impl_unpack_value(&self) -> syn::Result<proc_macro2::TokenStream> {
        if !self.attrs.unpack_value && !self.attrs.starlark_type_repr {
            return Ok(proc_macro2::TokenStream::new());
        }

        if !self.attrs.unpack_value || !self.attrs.starlark_type_repr {
            return Err(syn::Error::new_spanned(
                &self.input,
                "`UnpackValue` and `StarlarkTypeRepr` can only be specified together",
            ));
        }

        GenericsUtil::new(&self.input.generics).assert_only_lifetime_params()?;

        let lt = &self.lifetime_param;
        let params = &self.input.generics.params;
        // TODO(nga): where clause is incorrect:
        //   if there's something `Self: Xxx` constraint, it should be `*Self: Xxx`.
        let where_clause = &self.input.generics.where_clause;
        let self_ty = &self.input.self_ty;
        Ok(quote! {
            impl<#params> starlark::values::type_repr::StarlarkTypeRepr for &#lt #self_ty
            #where_clause
            {
                type Canonical = #self_ty;

                fn starlark_type_repr() -> starlark::typing::Ty {
                    <#self_ty as starlark::values::type_repr::StarlarkTypeRepr>::starlark_type_repr()
                }
            }

            impl<#params> starlark::values::UnpackValue<#lt> for &#lt #self_ty
            #where_clause
            {
                type Error = std::convert::Infallible;

                fn unpack_value_impl(value: starlark::values::Value<#lt>) -> Result<Option<&#lt #self_ty>, Self::Error> {
                    std::result::Result::Ok(starlark::values::ValueLike::downcast_ref(value))
                }
            }
        })
    }

    fn please_use_starlark_type_macro(&self) -> syn::Result<syn::ImplItem> {
        syn::parse2(quote! {
            fn please_use_starlark_type_macro() {}
        })
    }

    fn const_type(&self) -> syn::Result<syn::ImplItem> {
        let typ = &self.attrs.typ;
        syn::parse2(quote! {
            const TYPE: &'static str = #typ;
        })
    }

    fn get_type_value_static(&self) -> syn::Result<syn::ImplItem> {
        let typ = &self.attrs.typ;
        syn::parse2(quote! {
            #[inline]
            fn get_type_value_static() -> starlark::values::FrozenStringValue {
                starlark::const_frozen_string!(#typ)
            }
        })
    }

    /// Generate `HAS_foo` flags for each implemented function, including generated by this macro.
    fn has_fn_flags(&self, fixed_trait: &syn::ItemImpl) -> syn::Result<Vec<syn::ImplItem>> {
        let mut flags = Vec::new();
        for item in &fixed_trait.items {
            if let syn::ImplItem::Fn(f) = item {
                let has_name = vtable_has_field_name(&f.sig.ident);
                flags.push(syn::parse_quote! {
                    const #has_name: bool = true;
                });
            }
        }
        Ok(flags)
    }

    /// Find a function with given name.
    fn find_fn(&self, name: &str) -> Option<syn::ImplItemFn> {
        self.input.items.iter().find_map(|item| {
            if let syn::ImplItem::Fn(fn_) = item {
                if fn_.sig.ident == name {
                    Some(fn_.clone())
                } else {
                    None
                }
            } else {
                None
            }
        })
    }

    /// Find a type with given name.
    fn find_ty(&self, name: &str) -> Option<&syn::ImplItemType> {
        self.input.items.iter().find_map(|item| {
            if let syn::ImplItem::Type(ty) = item {
                if ty.ident == name { Some(ty) } else { None }
            } else {
                None
            }
        })
    }

    /// There's an function with given name.
    fn has_fn(&self, name: &str) -> bool {
        self.find_fn(name).is_some()
    }

    fn bin_op_arm(&self, bin_op: &str, impl_name: &str) -> Option<syn::Arm> {
        let bin_op = syn::Ident::new(bin_op, proc_macro2::Span::call_site());
        if self.has_fn(impl_name) || (impl_name == "bit_or" && self.has_fn("eval_type")) {
            Some(syn::parse_quote! {
                starlark::typing::TypingBinOp::#bin_op => {
                    Some(starlark::typing::Ty::any())
                }
            })
        } else {
            None
        }
    }

    fn bin_op_ty_impl(&self) -> syn::Result<Option<syn::ImplItem>> {
        let arms = [
            self.bin_op_arm("Add", "add"),
            self.bin_op_arm("Sub", "sub"),
            self.bin_op_arm("Mul", "mul"),
            self.bin_op_arm("Div", "div"),
            self.bin_op_arm("FloorDiv", "floor_div"),
            self.bin_op_arm("Percent", "percent"),
            self.bin_op_arm("In", "is_in"),
            self.bin_op_arm("BitOr", "bit_or"),
            self.bin_op_arm("BitAnd", "bit_and"),
            self.bin_op_arm("BitXor", "bit_xor"),
            self.bin_op_arm("Less", "compare"),
            self.bin_op_arm("LeftShift", "left_shift"),
            self.bin_op_arm("RightShift", "right_shift"),
        ];
        if arms.iter().all(Option::is_none) {
            // Use default implementation.
            return Ok(None);
        }
        let default_arm: Option<syn::Arm> = if arms.iter().all(Option::is_some) {
            None
        } else {
            Some(syn::parse_quote! {
                _ => { None }
            })
        };
        let arms = arms.into_iter().flatten();
        Ok(Some(syn::parse_quote! {
            fn bin_op_ty(op: starlark::typing::TypingBinOp, _rhs: &starlark::typing::TyBasic) -> Option<starlark::typing::Ty> {
                match op {
                    #( #arms )*
                    #default_arm
                }
            }
        }))
    }

    fn rbin_op_ty_impl(&self) -> syn::Result<Option<syn::ImplItem>> {
        let arms = [
            self.bin_op_arm("Add", "radd"),
            self.bin_op_arm("Mul", "rmul"),
        ];
        if arms.iter().all(Option::is_none) {
            // Use default implementation.
            return Ok(None);
        }
        Ok(Some(syn::parse_quote! {
            fn rbin_op_ty(_lhs: &starlark::typing::TyBasic, op: starlark::typing::TypingBinOp) -> Option<starlark::typing::Ty> {
                match op {
                    #( #arms )*
                    _ => {
                        None
                    }
                }
            }
        }))
    }

    /// Generate `fn bin_op_ty()`.
    fn bin_op_ty(&self) -> syn::Result<Option<syn::ImplItem>> {
        if self.has_fn("bin_op_ty") {
            Ok(None)
        } else {
            self.bin_op_ty_impl()
        }
    }

    /// Generate `fn rbin_op_ty()`.
    fn rbin_op_ty(&self) -> syn::Result<Option<syn::ImplItem>> {
        if self.has_fn("rbin_op_ty") {
            Ok(None)
        } else {
            self.rbin_op_ty_impl()
        }
    }

    /// `fn attr_ty()`.
    fn attr_ty(&self) -> syn::Result<Option<syn::ImplItem>> {
        if self.has_fn("attr_ty") {
            // User has custom `attr_ty` implementation.
            Ok(None)
        } else if !self.has_fn("get_attr") {
            Ok(Some(syn::parse2(quote! {
                fn attr_ty(_attr: &str) -> ::std::option::Option<starlark::typing::Ty> {
                    ::std::option::Option::None
                }
            })?))
        } else {
            // Use default implementation which returns `Any`.
            Ok(None)
        }
    }

    /// `fn bit_or()` for values which are types.
    fn bit_or(&self) -> syn::Result<Option<syn::ImplItem>> {
        if !self.has_fn("eval_type") {
            return Ok(None);
        }
        if let Some(bit_or) = self.find_fn("bit_or") {
            return Err(syn::Error::new_spanned(
                bit_or.sig.ident,
                "types with `eval_type` implemented can only have generated `bit_or`",
            ));
        }
        Ok(Some(syn::parse2(quote! {
            fn bit_or(&self, other: starlark::values::Value<'v>, heap: starlark::values::Heap<'v>) -> starlark::Result<starlark::values::Value<'v>> {
                starlark::values::typing::macro_refs::starlark_value_bit_or_for_type(self, other, heap)
            }
        })?))
    }

    /// `ValueLike<'v>`?
    fn path_is_value_like(&self, path: &syn::Path) -> syn::Result<bool> {
        let Some(last) = path.segments.last() else {
            return Ok(false);
        };
        if last.ident != "ValueLike" {
            return Ok(false);
        }
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
            return Ok(false);
        };
        if args.args.len() != 1 {
            return Ok(false);
        }
        let Some(arg) = args.args.first() else {
            // Unreachable.
            return Ok(false);
        };
        let syn::GenericArgument::Lifetime(lt) = arg else {
            return Ok(false);
        };
        Ok(lt == &self.lifetime_param)
    }

    /// `V: ValueLike<'v>`?
    fn type_param_is_value_like(&self, type_param: &syn::TypeParam) -> syn::Result<bool> {
        for bound in &type_param.bounds {
            if let syn::TypeParamBound::Trait(t) = bound {
                if self.path_is_value_like(&t.path)? {
                    return Ok(true);
                }
            }
        }
        // TODO(nga): also check `where` clause.
        Ok(false)
    }

    /// Extract path from self_ty for type transformation.
    fn extract_self_ty_path(&self) -> syn::Result<syn::Path> {
        let syn::Type::Path(type_path) = &*self.input.self_ty else {
            return Err(syn::Error::new_spanned(
                &self.input.self_ty,
                "self type is not path",
            ));
        };
        let syn::TypePath { qself, path } = type_path;
        if qself.is_some() {
            return Err(syn::Error::new_spanned(
                type_path,
                "qualified self not supported",
            ));
        }
        Ok(path.clone())
    }

    /// Make `Canonical` type.
    /// Replace type arguments with `Value<'v>`.
    fn do_make_canonical_type(&self) -> syn::Result<syn::Type> {
        let mut path = self.extract_self_ty_path()?;

        // If type name is `FrozenXxx`, it is likely that it should have `Canonical`
        // pointing to `Xxx`. Make it an error and force user to specify it explicitly to be safe.
        if let Some(last) = path.segments.last() {
            if last.ident.to_string().starts_with("Frozen") {
                return Err(syn::Error::new_spanned(
                    last,
                    "Type name starts with `Frozen`, please specify `Canonical` explicitly",
                ));
            }
        }

        struct PatchTypesVisitor<'a> {
            lifetime: &'a syn::Lifetime,
        }

        impl syn::visit_mut::VisitMut for PatchTypesVisitor<'_> {
            fn visit_type_mut(&mut self, i: &mut syn::Type) {
                let lifetime = self.lifetime;
                *i = syn::parse_quote! {
                    starlark::values::Value< #lifetime >
                };
            }
        }

        syn::visit_mut::VisitMut::visit_path_mut(
            &mut PatchTypesVisitor {
                lifetime: &self.lifetime_param,
            },
            &mut path,
        );

        Ok(syn::parse_quote! { #path })
    }

    fn make_canonical_type(&self) -> syn::Result<syn::Type> {
        // Impl has `V: ValueLike<'v>` constraint.
        let mut value_like_param = false;
        for type_param in &self.input.generics.params {
            match type_param {
                syn::GenericParam::Lifetime(_) => {}
                syn::GenericParam::Const(_) => {
                    return Err(syn::Error::new_spanned(
                        type_param,
                        "cannot infer `Canonical` type for type with const param",
                    ));
                }
                syn::GenericParam::Type(p) => {
                    if self.type_param_is_value_like(p)? {
                        if value_like_param {
                            return Err(syn::Error::new_spanned(
                                p,
                                "multiple generic parameters are `ValueLike`",
                            ));
                        }
                        value_like_param = true;
                    } else {
                        return Err(syn::Error::new_spanned(
                            p,
                            "cannot infer `Canonical` type for type with non-`ValueLike` param",
                        ));
                    }
                }
            }
        }
        self.do_make_canonical_type()
    }

    /// `type Canonical = ...`.
    fn canonical_member(&self) -> syn::Result<Option<syn::ImplItem>> {
        if self.find_ty("Canonical").is_some() {
            Ok(None)
        } else {
            let ty = self.make_canonical_type()?;
            Ok(Some(syn::parse_quote! {
                type Canonical = #ty;
            }))
        }
    }

    /// Make frozen type by replacing ValueLike param with FrozenValue
    /// and lifetime params with 'static.
    /// This is similar to `do_make_canonical_type` but for the frozen variant.
    ///
    /// e.g.
    /// FooGen<'v, T> -> FooGen<'static, FrozenValue>
    /// or
    /// FooGen<T> -> FooGen<FrozenValue>
    fn make_frozen_type(&self) -> syn::Result<syn::Type> {
        let mut path = self.extract_self_ty_path()?;

        struct PatchToFrozen;

        impl syn::visit_mut::VisitMut for PatchToFrozen {
            fn visit_type_mut(&mut self, i: &mut syn::Type) {
                *i = syn::parse_quote! {
                    starlark::values::FrozenValue
                };
            }

            fn visit_lifetime_mut(&mut self, i: &mut syn::Lifetime) {
                *i = syn::parse_quote! { 'static };
            }
        }

        syn::visit_mut::VisitMut::visit_path_mut(&mut PatchToFrozen, &mut path);

        Ok(syn::parse_quote! { #path })
    }

    /// Produce the unfrozen form of a `ValueLike`-parameterized `Self`, with
    /// lifetimes elided. Used for Ty vtable registration.
    ///
    /// Why elided: the unfrozen form is used as a type argument for getting
    /// `static TyStarlarkValueVTable`:
    ///   `static VTABLE: TyStarlarkValueVTable = TyStarlarkValueVTableGet::<#elided>::VTABLE;`
    /// Statics can't have lifetime parameters, so every `'v` is rewritten to
    /// `'_`, which Rust elides to `'static` in this position.
    ///
    /// e.g. `FooGen<'v, V: ValueLike>` → `FooGen<'_, Value<'_>>`.
    fn make_unfrozen_type_elided(&self) -> syn::Result<syn::Type> {
        let mut path = self.extract_self_ty_path()?;

        struct PatchToUnfrozen;

        impl syn::visit_mut::VisitMut for PatchToUnfrozen {
            fn visit_type_mut(&mut self, i: &mut syn::Type) {
                *i = syn::parse_quote! {
                    starlark::values::Value<'_>
                };
            }

            fn visit_lifetime_mut(&mut self, i: &mut syn::Lifetime) {
                *i = syn::parse_quote! { '_ };
            }
        }

        syn::visit_mut::VisitMut::visit_path_mut(&mut PatchToUnfrozen, &mut path);

        Ok(syn::parse_quote! { #path })
    }

    /// Make unfrozen type for the impl position: substitute `V` with
    /// `Value<'v>`, where `'v` is the shared StarlarkValue lifetime.
    ///
    /// e.g. `FooGen<'v, V>` -> `FooGen<'v, Value<'v>>`
    fn make_unfrozen_type_with_lifetime(&self) -> syn::Result<syn::Type> {
        let mut path = self.extract_self_ty_path()?;
        let lt = self.lifetime_param.clone();

        struct PatchToUnfrozen {
            lifetime: syn::Lifetime,
        }

        impl syn::visit_mut::VisitMut for PatchToUnfrozen {
            fn visit_type_mut(&mut self, i: &mut syn::Type) {
                let lt = &self.lifetime;
                *i = syn::parse_quote! {
                    starlark::values::Value< #lt >
                };
            }
        }

        syn::visit_mut::VisitMut::visit_path_mut(&mut PatchToUnfrozen { lifetime: lt }, &mut path);

        Ok(syn::parse_quote! { #path })
    }

    /// Emit registrations for vtable lookup. The shape of `Self`'s generics
    /// determines which registrations are emitted:
    ///
    /// | Generics on `Self`                    | AValue (frozen) | Ty (frozen) | Ty (unfrozen) |
    /// |---------------------------------------|-----------------|-------------|---------------|
    /// | none, e.g. `Foo`                      | yes             | yes         | n/a           |
    /// | lifetimes only, e.g. `Foo<'v>`        | no              | n/a         | yes (`'_`)    |
    /// | one `ValueLike`, e.g. `Foo<'v, V>`    | yes             | yes         | yes           |
    /// | otherwise (const, multi-`ValueLike`,  |                 |             |               |
    /// | non-`ValueLike` type param, mixes)    | bail — caller registers each instantiation manually   |
    ///
    /// `is_special` (user-defined `fn is_special`) suppresses the AValue vtable
    /// emit — the user is expected to register AValue externally.
    fn vtable_registration(&self) -> syn::Result<Option<proc_macro2::TokenStream>> {
        let is_special = self.has_fn("is_special");

        // Classify the generics into one of four shapes. Anything that
        // doesn't fit the first three buckets is "Manual" — the caller
        // must register each concrete instantiation themselves.
        let mut value_like_count = 0usize;
        let mut has_unsupport_kind = false;
        for param in &self.input.generics.params {
            match param {
                syn::GenericParam::Lifetime(_) => {}
                syn::GenericParam::Const(_) => has_unsupport_kind = true,
                syn::GenericParam::Type(p) => {
                    if self.type_param_is_value_like(p)? {
                        value_like_count += 1;
                    } else {
                        has_unsupport_kind = true;
                    }
                }
            }
        }

        // Manual: caller registers each concrete instantiation.
        if has_unsupport_kind || value_like_count > 1 {
            return Ok(None);
        }

        // ValueLike: one type param bound by ValueLike.
        if value_like_count == 1 {
            let frozen_ty = self.make_frozen_type()?;
            let frozen_part = self.emit_frozen_avalue_vtable_and_ty_vtable(is_special, &frozen_ty);
            let unfrozen_ty_elided = self.make_unfrozen_type_elided()?;
            let unfrozen_ty_with_lifetime = self.make_unfrozen_type_with_lifetime()?;
            let lifetimes = self.unfrozen_lifetimes();
            return Ok(Some(quote! {
                #frozen_part
                starlark::register_ty_starlark_value!(
                    generic = < #lifetimes >,
                    elided_ty = #unfrozen_ty_elided,
                    impl_ty = #unfrozen_ty_with_lifetime
                );
            }));
        }

        if self.attrs.skip_vtable {
            return Ok(None);
        }

        if self.attrs.ty_vtable_no_freeze {
            let self_ty = &self.input.self_ty;
            let elided_self_ty = {
                let mut ty = (**self_ty).clone();
                struct ElideLifetimes;
                impl syn::visit_mut::VisitMut for ElideLifetimes {
                    fn visit_lifetime_mut(&mut self, lt: &mut syn::Lifetime) {
                        *lt = syn::parse_quote! { '_ };
                    }
                }
                syn::visit_mut::VisitMut::visit_type_mut(&mut ElideLifetimes, &mut ty);
                ty
            };
            return Ok(Some(quote! {
                starlark::register_ty_starlark_value!(#elided_self_ty);
            }));
        }

        // No type params.
        // Check if has lifetime params.
        let self_has_args = matches!(&*self.input.self_ty, syn::Type::Path(p)
            if p.path.segments.last()
                .map(|s| !matches!(s.arguments, syn::PathArguments::None))
                .unwrap_or(false));

        if self_has_args {
            // LifetimeOnly: no frozen form (the type carries `'v`), so no
            // AValue and no frozen Ty registration. Emit only the unfrozen
            // Ty registration with lifetimes elided to `'_` — statics can't
            // carry a real `'v`.
            let elided = self.make_unfrozen_type_elided()?;
            return Ok(Some(quote! {
                starlark::register_ty_starlark_value!(#elided);
            }));
        }

        // No generics anywhere.
        let frozen_ty = (*self.input.self_ty).clone();
        Ok(Some(self.emit_frozen_avalue_vtable_and_ty_vtable(
            is_special, &frozen_ty,
        )))
    }

    /// Emit AValue vtable + Ty vtable registrations for the frozen form.
    /// AValue is suppressed when the user supplies a custom `is_special`.
    fn emit_frozen_avalue_vtable_and_ty_vtable(
        &self,
        is_special: bool,
        frozen_ty: &syn::Type,
    ) -> proc_macro2::TokenStream {
        let avalue = if is_special {
            proc_macro2::TokenStream::new()
        } else {
            quote! {
                starlark::register_simple_vtable_entry!(#frozen_ty);
                unsafe impl starlark::__derive_refs::VtableRegistered for #frozen_ty {}
            }
        };
        quote! {
            #avalue
            starlark::register_ty_starlark_value!(#frozen_ty);
        }
    }

    /// Lifetimes used in the unfrozen Ty's `impl_ty`. If `Self` has its own
    /// lifetime params, reuse them; otherwise introduce a fresh `'v`.
    fn unfrozen_lifetimes(&self) -> proc_macro2::TokenStream {
        let lifetimes: Vec<_> = self
            .input
            .generics
            .params
            .iter()
            .filter_map(|p| match p {
                syn::GenericParam::Lifetime(lt) => Some(&lt.lifetime),
                _ => None,
            })
            .collect();
        if lifetimes.is_empty() {
            let lt = &self.lifetime_param;
            quote! { #lt }
        } else {
            quote! { #(#lifetimes),* }
        }
    }
}

fn derive_starlark_value_impl(
    attr: StarlarkValueAttrs,
    mut input: syn::ItemImpl,
) -> syn::Result<proc_macro2::TokenStream> {
    let impl_starlark_value: ImplStarlarkValue = is_impl_starlark_value(input.clone(), attr)?;

    let impl_unpack_value = impl_starlark_value.impl_unpack_value()?;

    let please_use_starlark_type_macro = impl_starlark_value.please_use_starlark_type_macro()?;
    let const_type = impl_starlark_value.const_type()?;
    let get_type_value_static = impl_starlark_value.get_type_value_static()?;
    let bin_op_ty = impl_starlark_value.bin_op_ty()?;
    let rbin_op_ty = impl_starlark_value.rbin_op_ty()?;
    let attr_ty = impl_starlark_value.attr_ty()?;
    let bit_or = impl_starlark_value.bit_or()?;
    let canonical = impl_starlark_value.canonical_member()?;
    let vtable_registration = impl_starlark_value.vtable_registration()?;

    input.items.splice(
        0..0,
        [
            const_type,
            get_type_value_static,
            please_use_starlark_type_macro,
        ]
        .into_iter()
        .chain(attr_ty)
        .chain(bit_or)
        .chain(bin_op_ty)
        .chain(rbin_op_ty)
        .chain(canonical),
    );

    let has_fn_flags = impl_starlark_value.has_fn_flags(&input)?;
    input.items.extend(has_fn_flags);

    Ok(quote! {
        #impl_unpack_value

        #input

        #vtable_registration
    })
}
