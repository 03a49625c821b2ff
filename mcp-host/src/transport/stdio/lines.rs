//! Reading stdin: complete lines, each decoded and passed on or answered;
//! a line over the size cap is discarded as it streams past, never buffered.

use std::sync::Arc;

use rmcp::model::{ClientJsonRpcMessage, ErrorData};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::sync::mpsc;

use super::decode::{decode, Decoded};
use super::Output;
use crate::transport::sniff::IdSniffer;

/// Read lines until EOF, passing on messages and answering the unusable.
pub(super) async fn read_messages<R: AsyncRead + Unpin>(
    input: R,
    max_message_bytes: usize,
    inbox: mpsc::Sender<ClientJsonRpcMessage>,
    out: Arc<Output>,
) {
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut line = Vec::new();
    // While discarding an over-long line: its id so far, and its size.
    let mut oversized: Option<(IdSniffer, usize)> = None;
    loop {
        let chunk = match reader.fill_buf().await {
            Ok(chunk) => chunk,
            Err(err) => {
                tracing::error!("cannot read stdin: {err}");
                break;
            }
        };
        let at_eof = chunk.is_empty();
        let newline = memchr::memchr(b'\n', chunk);
        let take = newline.map_or(chunk.len(), |index| index + 1);
        let piece = &chunk[..take];
        if let Some((sniffer, size)) = oversized.as_mut() {
            sniffer.feed(piece);
            *size += take;
        } else if line.len() + take - usize::from(newline.is_some()) > max_message_bytes {
            let mut sniffer = IdSniffer::default();
            sniffer.feed(&line);
            sniffer.feed(piece);
            oversized = Some((sniffer, line.len() + take));
            line = Vec::new();
        } else {
            line.extend_from_slice(piece);
        }
        reader.consume(take);
        // A last line without a newline still counts, as in the reference.
        if newline.is_none() && !at_eof {
            continue;
        }
        if let Some((sniffer, size)) = oversized.take() {
            out.reply_error(sniffer.id(), too_large(size - usize::from(newline.is_some()), max_message_bytes)).await;
        } else if !line.is_empty() {
            let text = std::mem::take(&mut line);
            // A large message takes a while to parse: not on a protocol worker.
            let decoded = if text.len() <= super::INLINE_BYTES {
                Ok(decode(&text))
            } else {
                tokio::task::spawn_blocking(move || decode(&text)).await
            };
            match decoded {
                Ok(Decoded::Message(message)) => {
                    if let Some((id, error)) = out.in_flight.admit(&message) {
                        out.reply_error(Some(id), error).await;
                        continue;
                    }
                    if inbox.send(*message).await.is_err() {
                        break;
                    }
                }
                Ok(Decoded::Reply(id, error)) => out.reply_error(id, error).await,
                Ok(Decoded::Skip) => {}
                Err(err) => tracing::error!("decoding a message failed: {err}"),
            }
        }
        if at_eof {
            break;
        }
    }
}

fn too_large(size: usize, limit: usize) -> ErrorData {
    ErrorData::invalid_request(
        format!(
            "Request too large: the message is {size} bytes, over the limit of {} MiB, and was not processed; \
             the server's operator can raise the limit with --max-message-mib or MCP_VALIDATION_MAX_MESSAGE_MIB",
            limit / (1024 * 1024)
        ),
        Some(json!({"message_bytes": size, "limit_bytes": limit})),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_size_error_names_the_limit_and_the_flag() {
        let error = too_large(50_000_000, 16 << 20);
        assert_eq!(error.code.0, -32600);
        assert!(error.message.contains("50000000 bytes") && error.message.contains("16 MiB"));
        assert!(
            error.message.contains("--max-message-mib") && error.message.contains("MCP_VALIDATION_MAX_MESSAGE_MIB")
        );
    }
}
