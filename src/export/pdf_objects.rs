//! PDF objects as bytes: written as lopdf's writer writes them (the same bytes as
//! `Document::save_to`, which [`super::pdf::Prepared::write`] streams object by object), and fed
//! into the MD5 digest that becomes the document's `/ID`.

/// Writes indirect object `id` (`id generation obj ... endobj`), spaced as lopdf's writer
/// spaces it: a space before the object when it is a bare value, and after it when it is a
/// bare value, a name or a stream.
pub(super) fn write_indirect(
    out: &mut dyn std::io::Write,
    id: u32,
    generation: u16,
    object: &lopdf::Object,
) -> std::io::Result<()> {
    let separated = |o: &lopdf::Object| {
        use lopdf::Object as O;
        matches!(
            o,
            O::Null | O::Boolean(_) | O::Integer(_) | O::Real(_) | O::Reference(_)
        )
    };
    let end_separated = |o: &lopdf::Object| {
        separated(o) || matches!(o, lopdf::Object::Name(_) | lopdf::Object::Stream(_))
    };
    write!(
        out,
        "{id} {generation} obj\n{}",
        if separated(object) { " " } else { "" }
    )?;
    write_object(out, object)?;
    writeln!(
        out,
        "{}\nendobj",
        if end_separated(object) { " " } else { "" }
    )
}

/// Writes the cross-reference table of `xref` as lopdf writes it: runs of consecutive objects,
/// each a section.
pub(super) fn write_xref(
    out: &mut dyn std::io::Write,
    xref: &lopdf::xref::Xref,
) -> std::io::Result<()> {
    use lopdf::xref::{XrefEntry, XrefSection};
    writeln!(out, "xref")?;
    let mut section = XrefSection::new(0);
    section.add_unusable_free_entry();
    for obj_id in 1..xref.size {
        if section.is_empty() {
            section = XrefSection::new(obj_id);
        }
        match xref.get(obj_id) {
            Some(&XrefEntry::Normal { offset, generation }) => {
                section.add_entry(XrefEntry::Normal { offset, generation });
            }
            Some(_) => section.add_unusable_free_entry(),
            None => {
                if !section.is_empty() {
                    section.write_xref_section(out)?;
                    section = XrefSection::new(obj_id);
                }
            }
        }
    }
    if !section.is_empty() {
        section.write_xref_section(out)?;
    }
    Ok(())
}

/// Writes one object as lopdf's writer does (its `Writer::write_object`, which lopdf does not
/// export): the same bytes as `Document::save_to`.
pub(super) fn write_object(
    out: &mut dyn std::io::Write,
    object: &lopdf::Object,
) -> std::io::Result<()> {
    use lopdf::Object as O;
    let separated = |o: &O| {
        matches!(
            o,
            O::Null | O::Boolean(_) | O::Integer(_) | O::Real(_) | O::Reference(_)
        )
    };
    match object {
        O::Null => out.write_all(b"null"),
        O::Boolean(v) => out.write_all(if *v { b"true" } else { b"false" }),
        O::Integer(v) => write!(out, "{v}"),
        O::Real(v) => write!(out, "{v}"),
        O::Name(name) => write_name(out, name),
        O::String(text, lopdf::StringFormat::Literal) => {
            // backslashes, carriage returns and unbalanced parentheses escaped
            let mut escape = Vec::new();
            let mut open = Vec::new();
            for (i, &b) in text.iter().enumerate() {
                match b {
                    b'(' => open.push(i),
                    b')' if open.pop().is_none() => escape.push(i),
                    b'\\' | b'\r' => escape.push(i),
                    _ => {}
                }
            }
            escape.append(&mut open);
            out.write_all(b"(")?;
            for (i, &b) in text.iter().enumerate() {
                if escape.contains(&i) {
                    out.write_all(&[b'\\', if b == b'\r' { b'r' } else { b }])?;
                } else {
                    out.write_all(&[b])?;
                }
            }
            out.write_all(b")")
        }
        O::String(text, lopdf::StringFormat::Hexadecimal) => {
            out.write_all(b"<")?;
            for b in text {
                write!(out, "{b:02X}")?;
            }
            out.write_all(b">")
        }
        O::Array(items) => {
            out.write_all(b"[")?;
            for (k, item) in items.iter().enumerate() {
                if k > 0 && separated(item) {
                    out.write_all(b" ")?;
                }
                write_object(out, item)?;
            }
            out.write_all(b"]")
        }
        O::Dictionary(dict) => write_dict(out, dict),
        O::Stream(stream) => {
            write_dict(out, &stream.dict)?;
            out.write_all(b"stream\n")?;
            out.write_all(&stream.content)?;
            out.write_all(b"\nendstream")
        }
        O::Reference((num, generation)) => write!(out, "{num} {generation} R"),
    }
}

/// A dictionary, its entries in order, with a space before each bare value.
fn write_dict(out: &mut dyn std::io::Write, dict: &lopdf::Dictionary) -> std::io::Result<()> {
    use lopdf::Object as O;
    out.write_all(b"<<")?;
    for (key, value) in dict.iter() {
        write_name(out, key)?;
        if matches!(
            value,
            O::Null | O::Boolean(_) | O::Integer(_) | O::Real(_) | O::Reference(_)
        ) {
            out.write_all(b" ")?;
        }
        write_object(out, value)?;
    }
    out.write_all(b">>")
}

/// A name: white space, delimiters and bytes outside `!` to `~` as `#XX`.
fn write_name(out: &mut dyn std::io::Write, name: &[u8]) -> std::io::Result<()> {
    out.write_all(b"/")?;
    for &b in name {
        if b" \t\n\r\x0C()<>[]{}/%#".contains(&b) || !(33..=126).contains(&b) {
            write!(out, "#{b:02X}")?;
        } else {
            out.write_all(&[b])?;
        }
    }
    Ok(())
}

/// A writer that counts the bytes it passes on: the objects' offsets.
pub(super) struct Counting<'a> {
    /// Where the bytes go.
    pub inner: &'a mut dyn std::io::Write,
    /// The bytes passed on so far.
    pub written: usize,
}

impl std::io::Write for Counting<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
/// Sets the trailer's `/ID` to two copies of [`content_id`] (a new document's permanent and
/// changing identifiers are the same), as hex strings.
pub(super) fn set_content_id(lo: &mut lopdf::Document) {
    let id = lopdf::Object::String(content_id(lo).to_vec(), lopdf::StringFormat::Hexadecimal);
    lo.trailer.set("ID", vec![id.clone(), id]);
}

#[cfg(test)]
/// An MD5 digest of a document's objects (numbers, generations and contents, in object order)
/// and of its trailer's other entries: it depends only on what the file will contain, never on
/// the process or the time.
fn content_id(lo: &lopdf::Document) -> [u8; 16] {
    use md5::Digest as _;
    let mut h = md5::Md5::new();
    for (&(num, generation), object) in &lo.objects {
        h.update(num.to_le_bytes());
        h.update(generation.to_le_bytes());
        feed(&mut h, object);
    }
    for (key, value) in lo.trailer.iter().filter(|(k, _)| k.as_slice() != b"ID") {
        h.update(key);
        feed(&mut h, value);
    }
    h.finalize().into()
}

/// Feeds one object into the digest, tagging each kind and length so that different objects
/// never feed the same bytes.
pub(super) fn feed(h: &mut md5::Md5, object: &lopdf::Object) {
    use lopdf::Object as O;
    use md5::Digest as _;
    let bytes = |h: &mut md5::Md5, b: &[u8]| {
        h.update((b.len() as u64).to_le_bytes());
        h.update(b);
    };
    match object {
        O::Null => h.update(b"n"),
        O::Boolean(v) => h.update([b'b', u8::from(*v)]),
        O::Integer(v) => {
            h.update(b"i");
            h.update(v.to_le_bytes());
        }
        O::Real(v) => {
            h.update(b"r");
            h.update(v.to_le_bytes());
        }
        O::Name(v) => {
            h.update(b"N");
            bytes(h, v);
        }
        O::String(v, format) => {
            h.update(match format {
                lopdf::StringFormat::Literal => b"s",
                lopdf::StringFormat::Hexadecimal => b"x",
            });
            bytes(h, v);
        }
        O::Array(items) => {
            h.update(b"a");
            h.update((items.len() as u64).to_le_bytes());
            for item in items {
                feed(h, item);
            }
        }
        O::Dictionary(dict) => feed_dict(h, dict),
        O::Stream(stream) => {
            h.update(b"S");
            feed_dict(h, &stream.dict);
            bytes(h, &stream.content);
        }
        O::Reference((num, generation)) => {
            h.update(b"R");
            h.update(num.to_le_bytes());
            h.update(generation.to_le_bytes());
        }
    }
}

/// Feeds a dictionary, entries in their (deterministic, insertion) order.
fn feed_dict(h: &mut md5::Md5, dict: &lopdf::Dictionary) {
    use md5::Digest as _;
    h.update(b"d");
    h.update((dict.len() as u64).to_le_bytes());
    for (key, value) in dict.iter() {
        h.update((key.len() as u64).to_le_bytes());
        h.update(key);
        feed(h, value);
    }
}
