//! [`Str`], the string of the whole core: keys and scalar texts of the YAML trees, and the
//! names, messages and paths of the views, the simulation and the findings.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::ptr::NonNull;

mod well_known;
pub use well_known::WELL_KNOWN;

/// An immutable string: a key or a scalar's text of the tree, and the names, messages and
/// paths of the simulation, the views and the findings. It reads like a `&str` (`Deref`, `==`
/// with `&str`/`str`/`String`, `Display`) and serializes as a JSON string. It takes 16 bytes:
/// strings of up to 14 bytes (most names and keys of a manifest) live inside it, the longer
/// field names and values Kubernetes defines (`WELL_KNOWN`) are borrowed from the binary,
/// other longer ones live in one exact-size heap allocation, and compile-time texts (rule ids,
/// finalizers) are borrowed ([`Str::from_static`]). `to_string()` gives a `String`. Before it
/// replaced `String` in the simulation and the findings, their small strings were 0.38 M of
/// the 1.36 M heap blocks live at a lint's peak; at 24 bytes it was a third of the
/// simulation's and the views' bytes (benches/PROFILE.md).
pub struct Str(Repr);

const INLINE: usize = 14;

/// The parts of a `&[u8]` (a `Box<[u8]>`, an `Arc<[u8]>` or a `&'static str`) in 12 bytes, so
/// that a [`Str`] is 16: a `u32` length beside the tag, the pointer after it.
enum Repr {
    Inline {
        len: u8,
        buf: [u8; INLINE],
    },
    /// Owns the `Box<[u8]>` `ptr[..len]`.
    Heap {
        len: u32,
        ptr: NonNull<u8>,
    },
    /// Borrows the `&'static str` `ptr[..len]`.
    Static {
        len: u32,
        ptr: NonNull<u8>,
    },
    /// One text many objects carry (an event every provisioned claim gets): cloned by count.
    /// Holds one strong count of the `Arc<[u8]>` `ptr[..len]`.
    Shared {
        len: u32,
        ptr: NonNull<u8>,
    },
    /// A string of 4 GiB or more (never seen in a manifest; kept whole all the same).
    Big(Box<Box<str>>),
}

const _: () = assert!(std::mem::size_of::<Str>() == 16);
const _: () = assert!(std::mem::size_of::<Option<Str>>() == 16);

// SAFETY: a `Str` owns its `Heap` allocation alone, shares its `Shared` one only through the
// atomic counts of `Arc`, and never writes through any of its pointers: it is as `Send` and
// `Sync` as the `Box<str>`, `Arc<str>` and `&'static str` it stands for.
unsafe impl Send for Str {}
unsafe impl Sync for Str {}

impl Str {
    pub fn new(s: &str) -> Str {
        Str::without_heap(s).unwrap_or_else(|| Str::boxed(s.as_bytes().into()))
    }

    /// `s` inline, or borrowed from [`WELL_KNOWN`]; None when it needs a heap block.
    fn without_heap(s: &str) -> Option<Str> {
        if s.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..s.len()].copy_from_slice(s.as_bytes());
            Some(Str(Repr::Inline {
                len: s.len() as u8,
                buf,
            }))
        } else {
            let i = WELL_KNOWN.binary_search(&s).ok()?;
            Some(Str::from_static(WELL_KNOWN[i]))
        }
    }

    /// Takes ownership of the UTF-8 bytes of a `Box<str>`.
    fn boxed(b: Box<[u8]>) -> Str {
        match u32::try_from(b.len()) {
            Ok(len) => {
                let ptr = Box::into_raw(b) as *mut u8;
                // SAFETY: `Box::into_raw` never returns null.
                let ptr = unsafe { NonNull::new_unchecked(ptr) };
                Str(Repr::Heap { len, ptr })
            }
            // SAFETY: the bytes come from a `str`.
            Err(_) => Str(Repr::Big(Box::new(unsafe {
                std::str::from_boxed_utf8_unchecked(b)
            }))),
        }
    }

    /// A string known at compile time: no copy, no allocation.
    pub const fn from_static(s: &'static str) -> Str {
        // 4 GiB of text in the binary: not a thing a program can hold.
        assert!(s.len() <= u32::MAX as usize);
        // SAFETY: a reference is never null.
        let ptr = unsafe { NonNull::new_unchecked(s.as_ptr() as *mut u8) };
        Str(Repr::Static {
            len: s.len() as u32,
            ptr,
        })
    }

    /// Appends `s` (copies the string: for the rare edits of a finished text).
    pub fn push_str(&mut self, s: &str) {
        let mut t = String::from(std::mem::take(self));
        t.push_str(s);
        *self = Str::from(t);
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            // SAFETY: `buf[..len]` is only ever written from a whole `&str` (in `Str::new`), so
            // it is valid UTF-8 and `len` is on a character boundary.
            Repr::Inline { len, buf } => unsafe {
                std::str::from_utf8_unchecked(&buf[..*len as usize])
            },
            // SAFETY: `ptr[..len]` is the whole of a `str` (a `Box`, an `Arc` or a `'static`
            // one) that lives as long as `self` does.
            Repr::Heap { len, ptr } | Repr::Static { len, ptr } | Repr::Shared { len, ptr } => unsafe {
                std::str::from_utf8_unchecked(std::slice::from_raw_parts(
                    ptr.as_ptr(),
                    *len as usize,
                ))
            },
            Repr::Big(b) => b,
        }
    }

    /// It holds a heap copy of its own (cloning it copies it). Not for strings of 4 GiB or
    /// more, which are never shared.
    pub(crate) fn is_heap(&self) -> bool {
        matches!(self.0, Repr::Heap { .. })
    }

    /// The same string, with clones that share one allocation instead of copying it.
    pub fn shared(self) -> Str {
        match self.0 {
            Repr::Heap { .. } => {
                let arc: std::sync::Arc<[u8]> = self.as_str().as_bytes().into();
                let len = arc.len() as u32;
                let ptr = std::sync::Arc::into_raw(arc) as *const u8 as *mut u8;
                // SAFETY: `Arc::into_raw` never returns null.
                let ptr = unsafe { NonNull::new_unchecked(ptr) };
                Str(Repr::Shared { len, ptr })
            }
            _ => self,
        }
    }
}

impl Clone for Str {
    fn clone(&self) -> Str {
        match &self.0 {
            Repr::Inline { len, buf } => Str(Repr::Inline {
                len: *len,
                buf: *buf,
            }),
            Repr::Heap { .. } => Str::boxed(self.as_str().as_bytes().into()),
            Repr::Static { len, ptr } => Str(Repr::Static {
                len: *len,
                ptr: *ptr,
            }),
            Repr::Shared { len, ptr } => {
                // SAFETY: `self` holds a strong count of this `Arc<[u8]>`, so it is alive.
                unsafe {
                    std::sync::Arc::increment_strong_count(std::ptr::slice_from_raw_parts(
                        ptr.as_ptr() as *const u8,
                        *len as usize,
                    ))
                };
                Str(Repr::Shared {
                    len: *len,
                    ptr: *ptr,
                })
            }
            Repr::Big(b) => Str(Repr::Big(b.clone())),
        }
    }
}

impl Drop for Str {
    fn drop(&mut self) {
        match self.0 {
            // SAFETY: `ptr[..len]` came from `Box::into_raw` (in `Str::boxed`) and is owned by
            // `self` alone.
            Repr::Heap { len, ptr } => drop(unsafe {
                Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                    ptr.as_ptr(),
                    len as usize,
                ))
            }),
            // SAFETY: `ptr[..len]` came from `Arc::into_raw` (in `Str::shared`), and `self`
            // holds one strong count of it.
            Repr::Shared { len, ptr } => drop(unsafe {
                std::sync::Arc::from_raw(std::ptr::slice_from_raw_parts(
                    ptr.as_ptr() as *const u8,
                    len as usize,
                ))
            }),
            Repr::Inline { .. } | Repr::Static { .. } | Repr::Big(_) => {}
        }
    }
}

/// A text for a [`Str`]: a literal is borrowed ([`Str::from_static`]), a built `String` moved in.
/// Rules' builder methods take it, so the fixed help and suggestion texts of thousands of
/// findings cost no allocation.
pub trait IntoStr {
    fn into_str(self) -> Str;
}

impl IntoStr for &'static str {
    fn into_str(self) -> Str {
        Str::from_static(self)
    }
}

impl IntoStr for String {
    fn into_str(self) -> Str {
        Str::from(self)
    }
}

impl IntoStr for Str {
    fn into_str(self) -> Str {
        self
    }
}

impl Default for Str {
    fn default() -> Str {
        Str::new("")
    }
}

impl Deref for Str {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Str {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Str {
    fn from(s: &str) -> Str {
        Str::new(s)
    }
}

impl From<String> for Str {
    fn from(s: String) -> Str {
        Str::without_heap(&s).unwrap_or_else(|| Str::boxed(s.into_boxed_str().into_boxed_bytes()))
    }
}

impl From<&String> for Str {
    fn from(s: &String) -> Str {
        Str::new(s)
    }
}

impl From<&Str> for Str {
    fn from(s: &Str) -> Str {
        s.clone()
    }
}

impl serde::Serialize for Str {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Str {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Str, D::Error> {
        String::deserialize(d).map(Str::from)
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        match s.0 {
            Repr::Heap { len, ptr } => {
                std::mem::forget(s);
                // SAFETY: `ptr[..len]` is the UTF-8 `Box<[u8]>` `s` owned (see `Str::boxed`);
                // `s` is forgotten, so it is not freed twice.
                unsafe {
                    let b = Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                        ptr.as_ptr(),
                        len as usize,
                    ));
                    String::from_utf8_unchecked(b.into_vec())
                }
            }
            _ => s.as_str().to_string(),
        }
    }
}

impl PartialEq for Str {
    fn eq(&self, other: &Str) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Str {}

impl PartialOrd for Str {
    fn partial_cmp(&self, other: &Str) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Str {
    fn cmp(&self, other: &Str) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Str {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Str {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Str> for str {
    fn eq(&self, other: &Str) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Str> for &str {
    fn eq(&self, other: &Str) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Str> for String {
    fn eq(&self, other: &Str) -> bool {
        self == other.as_str()
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// `as_str` (the text Kubernetes and pvlint's outputs use for a variant) and `Display` for an
/// enum of plain variants, from one table: `named!(Phase { Bound => "Bound", ... })`.
macro_rules! named {
    ($t:ty { $($v:ident => $s:literal),* $(,)? }) => {
        impl $t {
            /// Every variant, in declaration order.
            #[allow(dead_code)]
            pub const ALL: &'static [Self] = &[$(Self::$v),*];

            /// The variant's name, as Kubernetes and pvlint's outputs write it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$v => $s),*
                }
            }
        }

        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use named;

#[cfg(test)]
mod tests {
    use super::*;

    /// The forms of a `Str` (inline, heap, static, shared) are one string to every reader:
    /// equality, ordering, hashing (map lookups by `&str`), JSON, and appending across the
    /// inline limit.
    #[test]
    fn str_forms_are_one_string() {
        use std::collections::HashMap;
        let long = "pvc-0c5e7a86-5f3b-4c1e-9d3a-6f0f1b2e8a11";
        for text in [
            "",
            "ReadWriteOnce",
            "exactly-14-byte",
            "exactly-15-bytes",
            "storageClassName",
            "exactly-22-bytes-long!",
            "ünïcödé-välüé-of-twenty-nine",
            long,
        ] {
            let forms = [
                Str::new(text),
                Str::from(text.to_string()),
                Str::from_static(text),
                Str::from(text.to_string()).shared(),
            ];
            for f in &forms {
                assert_eq!(f.as_str(), text);
                assert_eq!(f, &forms[0]);
                assert_eq!(f.cmp(&forms[0]), std::cmp::Ordering::Equal);
                assert_eq!(
                    serde_json::to_string(f).unwrap(),
                    serde_json::to_string(text).unwrap()
                );
                let back: Str = serde_json::from_str(&serde_json::to_string(f).unwrap()).unwrap();
                assert_eq!(back, text);
                let map: HashMap<Str, u8> = [(f.clone(), 1)].into();
                assert_eq!(map.get(text), Some(&1));
                // Clones outlive the original, and a moved-out String is the same text.
                let clones = vec![f.clone(), f.clone().shared(), f.clone()];
                drop(f.clone());
                for c in clones {
                    assert_eq!(c, text);
                    assert_eq!(String::from(c), text);
                }
            }
        }
        let mut s = Str::new("external-provisioner"); // 20 bytes: on the heap
        s.push_str(".volume.kubernetes.io/finalizer");
        assert_eq!(s, "external-provisioner.volume.kubernetes.io/finalizer");
        let mut s = Str::from_static("a");
        s.push_str("b");
        assert_eq!(s, "ab");
    }

    /// `Str::new` finds the well-known texts by binary search: the table must be in byte
    /// order, and holds only texts too long to be inline.
    #[test]
    fn well_known_texts_are_sorted_and_borrowed() {
        assert!(
            WELL_KNOWN.windows(2).all(|w| w[0] < w[1]),
            "WELL_KNOWN out of order"
        );
        for &w in WELL_KNOWN {
            assert!(w.len() > INLINE, "{w} fits inline");
            assert!(matches!(Str::new(w).0, Repr::Static { .. }), "{w}");
            assert!(
                matches!(Str::from(w.to_string()).0, Repr::Static { .. }),
                "{w}"
            );
        }
        assert!(matches!(Str::new("storageClassNam").0, Repr::Heap { .. }));
        assert!(matches!(Str::new("storageClassN").0, Repr::Inline { .. }));
    }
}
